"""Secrets said in words: "the password for the wifi is Tr0ub4dor&3", "mein Passwort ist ...",
"the gate code is 4711", "CVV 737", "the api key is ...", in several languages and scripts.

Each pattern is a name, an optional qualifier ("for the office wifi"), a connector ("is", ":",
"lautet", "est", "é", "は", "是" ...) and a value; only the value is reported, so withholding it
keeps the sentence. What the value must look like is what keeps ordinary talk about passwords
("my password is too long", "I forgot my password") from being flagged:
- after a clear connector, a password may be any word that is not a common word (too, wrong,
  the, same, expired ... in each language), or anything quoted;
- after an ambiguous one (English "to"/"on", no connector at all) or with an ambiguous name
  ("clave", "pw"), it must look made up: a digit, a symbol, or a capital inside the word;
- PINs, door and alarm codes and card codes must hold digits.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kit.secrets.base import ACCESS_CODE, CARD_CODE, KEY, PASSWORD, Secret
from kit.secrets.windows import keyword_hits, near

# -- names -------------------------------------------------------------------------------------
_PASSWORD_CLEAR = (
    r"passwords?|passwd|passphrase|passcode|passwort|kennwort|mot de passe|contraseña|senha"
    r"|palavra[- ]passe|parola d['’]ordine|wachtwoord|has[łl]o|l[öo]senord(?:et)?|passord(?:et)?"
    r"|adgangskode(?:n)?|kodeord(?:et)?|salasana|[şs]ifre(?:m|si|niz|n)?|пароль|паролем"
    r"|κωδικ[όο]ς(?: πρόσβασης)?|كلمة (?:المرور|السر)|ה?סיסמ[הא]|पासवर्ड|कूटशब्द"
    # the key of a wifi network is its password
    r"|(?:wi-?fi|wlan|wpa[23]?|wireless|network|router)[ -](?:key|passkey)|netzwerkschlüssel"
    r"|wlan-schlüssel|clé (?:wi-?fi|wpa)|clave (?:wi-?fi|wpa)"
)
_PASSWORD_CJK = (
    r"パスワード|暗証番号|密码|密碼|비밀번호|암호"  # no word boundaries in these scripts
)
_PASSWORD_AMBIGUOUS = r"pass|pw|pwd|mdp|clave|parola"
_LOGIN = r"log[- ]?in|user(?:name)?|benutzer(?:name)?|utilisateur|usuario"
_PIN = (
    r"(?:pin|puk)(?:[- ]?(?:code|number|nummer|kod(?:en)?|kode(?:n)?|koodi|kodu|nr))?"
    r"|geheimzahl|code pin|código pin|codice pin|kod pin|пин(?:-код)?|пук(?:-код)?"
    r"|الرقم السري|الرمز السري|رمز (?:PIN|الدخول)|पिन|पासकोड|קוד סודי|קוד PIN"
)
_ACCESS_EN = (
    r"(?:door|gate|alarm|garage|safe|lock|locker|lockbox|padlock|entry|entrance|access|building"
    r"|keypad|intercom|buzzer|house|wi-?fi|security|verification|confirmation|2fa|two[- ]factor"
    r"|otp|one[- ]time|login|unlock|recovery|backup|sms|authenticator|key|keysafe|keybox|bike"
    r"|luggage|suitcase|disarm|panel|sim|puk)"
    r"(?:['’]s)?(?:[ -][\w-]+){0,2}?[ -](?:code|combination|combo)s?"
    # what a code opens, named alone: "the bike lock is 0471", "To disarm the alarm: 9142"
    r"|alarm(?:\s*\([^)\n]{0,30}\))?|(?:bike|bicycle|suitcase|luggage|locker|gym|cable)[ -]lock"
)
# A bare "code" only when what it opens follows: "the code to unlock my phone", "Code für die Tür".
_ACCESS_BARE = (
    r"code(?=\s+(?:to|for|of|für|von|pour|de|para|per|do|для|от)\b[^\n:=]{0,30}?"
    r"(?<![^\W_])(?:unlock|door|gate|alarm|garage|safe|lock|locker|padlock|phone|entry|building"
    r"|house|flat|apartment|tür|haustür|tor|tresor|schloss|porte|portail|alarme|puerta|portal"
    r"|alarma|portão|porta|cancello|allarme|deur|poort|drzwi|bramy|двер\w*))"
)
_ACCESS_OTHER = (
    r"(?:tür|tor|haustür|alarm|alarmanlagen|zugangs|sicherheits|schloss|tresor|garagen|wlan"
    r"|deur|poort|toegangs|garage|schlüsseltresor|schlüsselsafe|schlüsselkasten)-?code"
    r"|zahlenkombination|digicode"
    r"|(?:port|dør|dörr|grind|alarm|larm)kod(?:en)?|(?:port|dør|alarm)kode(?:n)?"
    r"|(?:ovi|hälytys)koodi"
    # what opens: "the key box ... opens with 1966"
    r"|key[ -]?(?:safe|box)|keysafe|lockbox|padlock|combination lock"
    r"|ה?קוד(?=\s+(?:של\s+)?ה?(?:דלת|כניסה|אזעקה|שער|כספת|בניין))"
    r"|code (?:de la porte|d['’]entrée|de l['’]alarme|d['’]accès|du portail|de l['’]immeuble"
    r"|du cadenas|du coffre|de (?:la |ma )?carte(?: bleue| bancaire)?|confidentiel)"
    r"|código (?:de la puerta|de la alarma|de acceso|de entrada|de la caja fuerte|del portal"
    r"|del portón|del candado|del garaje|do portão|do alarme|da porta|de acesso|do cadeado"
    r"|da garagem)"
    r"|codice (?:del cancello|dell['’]allarme|della porta|di accesso|del lucchetto"
    r"|della cassaforte)"
    r"|kod (?:do drzwi|do bramy|alarmu|dostępu|do domofonu|do sejfu)"
    r"|код (?:от двери|домофона|сигнализации|доступа|от сейфа|от подъезда)"
)
_CARD_CODE_CJK = r"安全码|安全碼|セキュリティコード|보안코드|보안 코드"
_CARD_CODE = (
    r"cvv2?|cvc2?|csc|cvn|card security code|security code|card verification"
    r" (?:code|value|number)|(?:karten)?prüfnummer|cryptogramme(?: visuel)?"
    r"|código de seguridad|código de segurança|codice di sicurezza"
)
_API = (
    r"api[_ -]?(?:key|token|secret)|access[_ -]?(?:key|token)|secret[_ -]?key|client[_ -]?secret"
    r"|auth[_ -]?token|bearer(?: token)?|(?:bot |personal |app |refresh )?token|secret"
    r"|api-schlüssel|clé (?:d['’])?api|clave (?:de )?api|chave (?:de )?api|chiave api|klucz api"
    r"|ключ api"
)

# -- between the name and the value --------------------------------------------------------------
# "for the office wifi", "du wifi", "от почты", "they sent": a preposition (or a relative
# clause) and a few words, on one line.
_QUALIFIER = (
    r"(?:\s+(?:for|to|of|on|at|in|from|with|that|which|they|you|we|i|he|she|my|your|our"
    r"|by|near|next|beside|behind|under|outside|inside"
    r"|für|zum|zur|vom|von|des|der|meiner|meines|meinem|deiner|unserer|du|de|del|della|dello"
    r"|μου|σου|του|της|των|στο|στη|για|של|שלי|ל\w+|ل\w+|بتاع\w*|الخاص\w*"
    r"|dei|da|do|dos|das|dla|od|от|для|till|för|til|på|af|van|voor|bij|di|per|pour|para|na)\b"
    r"[^\n:=]{0,40}?)?"
)
_CLEAR = (
    r"\s*(?:[:=]|->|=>|—|–|\b(?:is|was|are|equals|ist|lautet|war|est|était|es|era|é|è|är"
    r"|var|er|jest|było|было|είναι)\b|は|是|為|为|는|은|："
    # Arabic, Hebrew and Hindi "is" (Hindi's vowel signs are not word characters: no \b)
    r"|(?<=\s)(?:هي|هو|היא|הוא|है|हैं)(?=\s))"
    r"(?:\s*[:=])?(?:\s+(?:now|still|currently|jetzt|nun|maintenant|ahora|agora|ora|nu|teraz"
    r"|теперь|simply|just))?"
)
_CHANGED = (
    r"\s+(?:(?:was|is|has been|got|been)\s+)?(?:changed|set|reset|updated)\s+to"
    r"|\s+(?:wurde\s+)?geändert\s+(?:auf|zu|in)|\s+(?:a été\s+)?changé\s+en"
    r"|\s+(?:opens|unlocks|is set)\s+(?:with|to)"
)
_AMBIGUOUS = r"\s+(?:to|on|er|en|это)\b"

# -- values -------------------------------------------------------------------------------------
_QUOTED = (
    r'"[^"\n]{2,64}"|\'[^\'\n]{2,64}\'|“[^”\n]{2,64}”|‘[^’\n]{2,64}’|«[^»\n]{2,64}»'
    r"|„[^“”\n]{2,64}[“”]|`[^`\n]{2,64}`"
)
_BARE = r"[^\s\"'“”‘’«»„`]{3,64}"
# Words that follow "my password is" in talk about a password, not in telling it.
_COMMON = frozenset(
    """
    the a an my your his her our their its this that it not no too very so still also just now
    same different wrong incorrect correct right invalid valid weak strong secure insecure safe
    unsafe long short expired expiring changed reset required needed missing lost forgotten
    saved stored written hidden encrypted hashed case sensitive easy hard simple complicated
    complex good bad fine ok okay great terrible unique something nothing anything everything
    one what which where there here in on at for to of with by from and or but if when because
    about like being been getting going set updated working broken blocked locked protected
    shared known public private generated random new old usually always never probably
    definitely actually really quite pretty rather much more less enough somewhere
    der die das ein eine mein meine dein sein ihr unser nicht kein keine zu sehr noch auch jetzt
    gleich falsch richtig ungültig gültig schwach stark sicher unsicher lang kurz abgelaufen
    geändert vergessen gespeichert leicht schwer einfach kompliziert gut schlecht neu alt immer
    nie le la les un une mon ma mes ton ta son sa notre votre leur pas ne trop très encore aussi
    maintenant même faux fausse incorrecte bon bonne mauvais invalide valide faible fort forte
    sécurisé longue court courte expiré changé oublié compliqué nouveau nouvelle toujours jamais
    el los las una mi tu su nuestro demasiado muy todavía también ahora mismo misma incorrecta
    incorrecto correcta correcto válida débil fuerte segura seguro larga largo corta corto
    caducada cambiada olvidada nueva nuevo siempre nunca o os as um uma meu minha teu tua seu
    não muito ainda agora mesma mesmo errada errado correta fraca segura longa curta expirada
    alterada esquecida simples nova sempre il lo i gli mio mia tuo tua suo non troppo molto
    ancora anche adesso ora stessa stesso sbagliata sbagliato corretta debole sicura lunga
    scaduta cambiata dimenticata semplice mai de het een mijn jouw zijn haar ons niet te heel
    nog ook nu dezelfde hetzelfde fout verkeerd juist zwak sterk veilig verlopen veranderd
    vergeten simpel nieuw altijd nooit nie za bardzo jeszcze też teraz ten sam to błędne złe
    poprawne słabe silne bezpieczne długie krótkie zmienione zapomniane nowe zawsze не слишком
    очень ещё тоже теперь тот же неправильный неверный правильный слабый сильный надёжный
    длинный короткий изменён новый всегда
    min mit din dit ikke for meget også stadig nu udløbet udløber forkert rigtig glemt gemt ny
    nye gammel samme lang kort svag stærk sikker ændret utløpt utløper feil riktig lagret
    endret svakt sterkt langt nytt gammelt fel rätt glömt sparat ändrat svagt starkt långt
    samma gammalt inte mycket också fortfarande utgånget väärä oikea vanhentunut unohtunut
    vaihdettu heikko vahva pitkä lyhyt sama uusi vanha liian ei yanlış doğru eski yeni aynı
    uzun kısa zayıf güçlü çok değişti
    """.split()
)
_NOT_COMMON = r"(?!(?:" + "|".join(sorted(map(re.escape, _COMMON))) + r")(?![^\W_]))"
_MADE_UP = r"\d|[#&_@$%*+=/\\~^|<>{}\[\]-]|(?-i:[a-zà-ÿ][A-Z])"  # a digit, a symbol, camelCase
_TRAILING = ".,;:)]}'\"”’»"
_OPENING_QUOTES = "\"'“‘«„`"


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _named(names: str) -> str:
    """`names` as whole words: "DB_PASSWORD" names one, "PASSWORD_MIN_LENGTH" does not."""
    return rf"(?<![^\W_])(?:{names})(?![^\W_]|_[^\W\d_])"


def _connected(connectors: str) -> str:
    """A qualifier only before a spoken connector: with none, "clave del wifi" must not make
    "wifi" the value."""
    return rf"(?:{_QUALIFIER}(?:{connectors})|{connectors})"


# A plain uncommon word will do ("the password to my laptop is sunshine")...
_WORD_VALUE = rf"(?P<value>{_QUOTED}|{_NOT_COMMON}{_BARE})"
# ...or it must look made up.
_STRICT_VALUE = rf"(?P<value>{_QUOTED}|(?=\S*?(?:{_MADE_UP})){_BARE})"
_ANY = rf"{_CLEAR}|{_CHANGED}|{_AMBIGUOUS}|\s*[-–—]?"
# What a password has that is not its value: "Password strength: 3/4".
_ATTRIBUTE = (
    r"(?:strength|policy|length|manager|reset|rules?|requirements?|field|expir\w*|change[ds]?"
    r"|updated?|hint|tips?|generator|check(?:er)?|score|age|history|settings?|recovery)\b"
)
# A word or two with no connector, before a PIN's digits: "пин-код карты 3927".
_FILLER = r"(?:[ \t]+[^\W\d_][\w-]{0,20}){1,2}?"  # or nothing at all: "şifrem Istanbul34!"

# (kind, pattern with a "value" group)
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        PASSWORD,
        _c(rf"{_named(_PASSWORD_CLEAR)}{_connected(_CLEAR + '|' + _CHANGED)}\s*{_WORD_VALUE}"),
    ),
    (PASSWORD, _c(rf"(?:{_PASSWORD_CJK}){_connected(_CLEAR)}\s*{_STRICT_VALUE}")),
    (
        PASSWORD,
        _c(
            rf"{_named(_PASSWORD_CLEAR + '|' + _PASSWORD_AMBIGUOUS)}{_connected(_ANY)}"
            rf"\s*{_STRICT_VALUE}"
        ),
    ),
    # "use 'purple monkey dishwasher' as the passphrase", "Blue42! is my password"
    (
        PASSWORD,
        _c(
            rf"(?P<value>{_QUOTED}|(?<!\S)(?=\S*?(?:{_MADE_UP})){_BARE})\s+(?:is|was|as|=)\s+"
            rf"(?:my|the|our|your|his|her|their)\s+(?:[\w-]+\s+){{0,3}}?{_named(_PASSWORD_CLEAR)}"
        ),
    ),
    # "login: ana@example.com / Sunflower88!", "router login admin / Adm1n!2023"
    (
        PASSWORD,
        _c(
            rf"{_named(_LOGIN)}\s*[:=]?"
            rf"\s*\S+\s*(?:/|\||,|;|\band\b|\bpass(?:word)?\s*[:=]?)\s*{_STRICT_VALUE}"
        ),
    ),
    # "Netflix: ana@example.com / Hunter2024!": an account and a made-up word beside it
    (
        PASSWORD,
        _c(
            r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*(?:/|\||;|–|—|\s-)\s*"
            r"(?P<value>(?=\S*?[^\W\d_])(?=\S*?[\d#&_$%*+=!?])[^\s@/]{4,64})"
        ),
    ),
    (
        ACCESS_CODE,
        _c(
            rf"{_named(_PIN)}(?:{_connected(_ANY)}|{_FILLER}(?:{_ANY}))"
            r"\s*(?P<value>\d(?:[- .]?\d){3,7})(?![\d-])"
        ),
    ),
    (
        ACCESS_CODE,
        _c(
            rf"{_named(_ACCESS_EN + '|' + _ACCESS_BARE + '|' + _ACCESS_OTHER)}{_connected(_ANY)}\s*"
            r"(?P<value>(?=(?:[^\d\s]{0,3}[- ]?\d){3})"
            r"[0-9A-Z#*](?:[0-9A-Za-z#*]|[- ](?=[0-9#*])){2,23})"
        ),
    ),
    (CARD_CODE, _c(rf"{_named(_CARD_CODE)}{_connected(_ANY)}\s*(?P<value>\d{{3,4}})(?!\d)")),
    (CARD_CODE, _c(rf"(?:{_CARD_CODE_CJK}){_connected(_CLEAR)}?\s*(?P<value>\d{{3,4}})(?!\d)")),
    # Google's app passwords: four groups of four letters
    (
        PASSWORD,
        _c(
            rf"{_named('app[- ]?passwor(?:d|t)')}{_connected(_ANY)}\s*"
            r"(?P<value>[a-z]{4}(?: [a-z]{4}){3})\b"
        ),
    ),
    # a passphrase is words: "ssh key passphrase: Mountain Goat 88" (to the clause's end)
    (
        PASSWORD,
        _c(
            rf"{_named('passphrase|phrase de passe')}{_connected(_CLEAR)}\s*"
            rf"(?P<value>{_NOT_COMMON}[^\s\"'“”‘’«»„`.,;!?]{{1,30}}"
            r"(?:[ \t]+[^\s.,;!?]{1,30}){1,5})"
        ),
    ),
    # "Mot de passe Netflix : Chocolat!12", "Passwort fürs Online-Banking: Sparkasse#88": what
    # the password is for, a few words before a colon; its value must look made up
    (
        PASSWORD,
        _c(
            rf"{_named(_PASSWORD_CLEAR)}(?![ \t]+{_ATTRIBUTE})(?:[ \t]+[^\s:=]{{1,30}}){{1,3}}?"
            rf"[ \t]*[:=]\s*{_STRICT_VALUE}"
        ),
    ),
    (
        KEY,
        _c(
            rf"{_named(_API)}{_connected(_ANY)}\s*"
            rf"(?P<value>(?=\S*?\d)(?=\S*?[a-z])[A-Za-z0-9_\-./+=:]{{12,}})"
        ),
    ),
)


# One quick scan for any name first: most text mentions none, and then no pattern need run.
_ANY_NAME = _c(
    _named(
        "|".join(
            (
                *(_PASSWORD_CLEAR, _PASSWORD_AMBIGUOUS, _PIN, _ACCESS_EN, _ACCESS_BARE),
                *(_ACCESS_OTHER, _CARD_CODE, _API, _LOGIN),
            )
        )
    )
    + f"|{_PASSWORD_CJK}|{_CARD_CODE_CJK}"
    + r"|@[\w-]+\."  # an account beside a password
)
# A plain word of a script other than Latin after "is" is the sentence's own language
# ("Ο κωδικός είναι λάθος": the password is wrong); passwords are typed in Latin letters.
_FOREIGN_WORD = re.compile(r"[^\W\da-zA-Z_]+")
# Code that mentions a password without holding one: a call, a subscript, a template.
_CODE = re.compile(r"[\w.]+\s*[(\[]|\$\{|\{\{|%\(|<[\w-]+>$")


# A word each name above holds (lowercase): text holding none of them (most chat) is passed
# over without the name scan, whose alternation costs about as much as the rest together.
# tests/trust/test_secret_detector.py checks that every text the name scan finds holds one of
# these.
_KEYWORDS = (
    *"pass pw mdp clave parola kennwort contraseña senha palavra wachtwoord hasło haslo".split(),
    *"lösenord losenord passord adgangskode kodeord salasana şifre sifre пароль κωδικ".split(),
    *"كلمة סיסמ पासवर्ड कूटशब्द key schlüssel clé log user benutzer utilisateur usuario".split(),
    *"pin puk geheimzahl пин пук الرقم الرمز رمز पिन पासकोड קוד code combination combo".split(),
    *"alarm lock safe box código codice kod код kombination koodi cvv cvc csc cvn".split(),
    *"prüfnummer cryptogramme verification api token secret bearer chave chiave".split(),
    *"klucz ключ @".split(),
    *"パスワード 暗証番号 密码 密碼 비밀번호 암호 安全码 安全碼 セキュリティコード 보안".split(),
)


_KEYWORD = re.compile("|".join(map(re.escape, sorted(_KEYWORDS, key=len, reverse=True))))


def has_keyword(text: str) -> bool:
    return _KEYWORD.search(text.lower()) is not None


_NAME_REACH = 80  # a name is at most this long around the keyword it holds
# How far from a name its value may sit: "X is my password" puts it before (a quoted value, a
# few words), a qualifier and a passphrase after.
_BEFORE = 250
_AFTER = 300


def find_prose(text: str) -> Iterator[Secret]:
    # Only near a name: the keywords (one cheap scan) say where names may be, the name scan
    # runs around them, and the patterns around the names it finds.
    for lo, hi in near(text, keyword_hits(text, _KEYWORD), _NAME_REACH, _NAME_REACH):
        for start, end in near(text, _ANY_NAME.finditer(text, lo, hi), _BEFORE, _AFTER):
            yield from _values(text, start, end)


def _values(text: str, start: int, end: int) -> Iterator[Secret]:
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text, start, end):
            value = match.group("value")
            if _FOREIGN_WORD.fullmatch(value) or _CODE.match(value):
                continue
            if value[0] not in _OPENING_QUOTES:
                value = value.rstrip(_TRAILING)
                if len(value) < 3 or not (re.search(_MADE_UP, value) or len(value) >= 4):
                    continue  # "…is abc." says too little to be a password
            at = match.start("value")
            yield Secret(kind, at, at + len(value))
