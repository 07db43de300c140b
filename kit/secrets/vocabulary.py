"""The words the prose patterns (prose.py) and the other detectors read, in many languages: what
names a password, a PIN, an access code, a card code, a key; what may stand between a name and
its value; and the common words that follow "my password is" in talk about a password rather
than in telling one. Patterns are alternations of lowercase words, matched case-insensitively.
"""

from __future__ import annotations

# -- names -------------------------------------------------------------------------------------
PASSWORD_CLEAR = (
    r"passwords?|passwd|passphrase|passcode|passwort|kennwort|mot de passe|contraseña|senha"
    r"|palavra[- ]passe|parola d['’]ordine|wachtwoord|has[łl]o|l[öo]senord(?:et)?|passord(?:et)?"
    r"|adgangskode(?:n)?|kodeord(?:et)?|salasana|[şs]ifre(?:m|si|niz|n)?|пароль|паролем"
    r"|κωδικ[όο]ς(?: πρόσβασης)?|كلمة (?:المرور|السر)|ה?סיסמ[הא]|पासवर्ड|कूटशब्द"
    # Czech and Slovak, Hungarian, Vietnamese, Indonesian and Malay, Romanian, Croatian,
    # Serbian and Bosnian, Slovene, Lithuanian, Estonian, Bulgarian and Macedonian, Catalan,
    # Galician, Basque, Afrikaans, Icelandic, Welsh, Albanian, Swahili, Persian, Urdu,
    # Bengali, Tamil, Georgian, Armenian, Kazakh
    r"|hesl[oaue]m?|jelsz[óo](?:t|m|d|ja|nak|hoz)?|mật khẩu|kata (?:sandi|laluan)|parol[ăa]"
    r"|lozink[aeu]|лозинк[аеу]|gesl[oa]|slaptažod(?:is|į|žio)|parool|salasõna|парол[аи]"
    r"|contrasenya|contrasinal|pasahitza|wagwoord|lykilorð|cyfrinair|fjalëkalim(?:i)?"
    r"|nenosiri|رمز عبور|گذرواژه|پاس ?ورڈ|পাসওয়ার্ড|கடவுச்சொல்|პაროლი|გასაღები"
    r"|գաղտնաբառ|құпия сөз"
    # a passphrase and what stands for a password in account recovery
    r"|phrase (?:secrète|de passe)|frase (?:secreta|de contraseña|de acceso)"
    r"|(?:security|secret)[ -](?:question[ -])?answers?|memorable (?:word|answer)"
    r"|mother['’]?s maiden name|réponse secrète|respuesta (?:secreta|de seguridad)"
    r"|sicherheitsantwort"
    # the key of a wifi network is its password
    r"|(?:wi-?fi|wlan|wpa[23]?|wireless|network|router)[ -](?:key|passkey)|netzwerkschlüssel"
    r"|wlan-schlüssel|clé (?:wi-?fi|wpa)|clave (?:wi-?fi|wpa)"
)
# no word boundaries in these scripts (Thai's password too)
PASSWORD_CJK = r"パスワード|暗証番号|密码|密碼|口令|비밀번호|암호|รหัสผ่าน|รหัส"
PASSWORD_AMBIGUOUS = r"pass|pw|pwd|mdp|clave|parola"
LOGIN = r"log[- ]?in|user(?:name)?|benutzer(?:name)?|utilisateur|usuario"
PIN = (
    r"(?:pin|puk)(?:[- ]?(?:code|number|nummer|kod(?:en)?|kode(?:n)?|koodi|kodu|nr))?"
    r"|geheimzahl|code pin|código pin|codice pin|kod pin|пин(?:-код)?|пук(?:-код)?"
    r"|الرقم السري|الرمز السري|رمز (?:PIN|الدخول)|पिन|पासकोड|קוד סודי|קוד PIN"
)
ACCESS_EN = (
    r"(?:door|gate|alarm|garage|safe|lock|locker|lockbox|padlock|entry|entrance|access|building"
    r"|keypad|intercom|buzzer|house|wi-?fi|security|verification|confirmation|2fa|two[- ]factor"
    r"|otp|one[- ]time|login|unlock|recovery|backup|sms|authenticator|key|keysafe|keybox|bike"
    r"|luggage|suitcase|disarm|panel|sim|puk|atm|card|debit|credit|bank|phone|screen"
    r"|voicemail)"
    r"(?:['’]s)?(?:[ -][\w-]+){0,2}?[ -](?:code|combination|combo)s?"
    # what a code opens, named alone: "the bike lock is 0471", "To disarm the alarm: 9142"
    r"|alarm(?:\s*\([^)\n]{0,30}\))?|(?:bike|bicycle|suitcase|luggage|locker|gym|cable)[ -]lock"
    # what a code opens, named alone before a colon or "opens with": "Door: 8533#", "safe:
    # 24-36-12", "the safe opens with 24-36-12" (the value must be digits)
    r"|(?:front |back |main |garage |building |street )?(?:door|gate|entrance|keypad|safe"
    r"|locker|padlock|lockbox|strongbox)(?=\s*:|\s+(?:opens|unlocks)\s+with\b)"
    # a combination named alone: its value must be numbers ("The combination is 12-34-56")
    r"|combination|combo"
)
# A bare "code" only when what it opens follows: "the code to unlock my phone", "Code für die Tür".
ACCESS_BARE = (
    r"(?:code|combination|combo)(?=\s+(?:to|for|of|für|von|pour|de|para|per|do|для|от)\b"
    r"[^\n:=]{0,30}?"
    r"(?<![^\W_])(?:unlock|door|gate|alarm|garage|safe|lock|locker|padlock|phone|entry|building"
    r"|house|flat|apartment|tür|haustür|tor|tresor|schloss|porte|portail|alarme|puerta|portal"
    r"|alarma|portão|porta|cancello|allarme|deur|poort|drzwi|bramy|двер\w*))"
)
ACCESS_OTHER = (
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
    # a combination, in the languages of the names above
    r"|combinazione|combinación|combinaison|kombination(?:en)?|kombinacj[ai]|combinação"
    r"|комбинаци[яюи]|combinatie|kombinasjon(?:en)?|kombinace|kombináció|yhdistelmä"
    r"|kombinasyon(?:u)?|συνδυασμός"
    r"|код (?:от двери|домофона|сигнализации|доступа|от сейфа|от подъезда)"
)
CARD_CODE_CJK = r"安全码|安全碼|セキュリティコード|보안코드|보안 코드"
CARD_CODE = (
    r"cvv2?|cvc2?|csc|cvn|card security code|security code|card verification"
    r" (?:code|value|number)|(?:karten)?prüfnummer|cryptogramme(?: visuel)?"
    r"|código de seguridad|código de segurança|codice di sicurezza"
)
API = (
    r"api[_ -]?(?:key|token|secret)|access[_ -]?(?:key|token)|secret[_ -]?key|client[_ -]?secret"
    r"|auth[_ -]?token|bearer(?: token)?|(?:bot |personal |app |refresh )?token|secret"
    r"|api-schlüssel|clé (?:d['’])?api|clave (?:de )?api|chave (?:de )?api|chiave api|klucz api"
    r"|ключ api"
)


# -- between the name and the value --------------------------------------------------------------
# "for the office wifi", "du wifi", "от почты", "they sent": a preposition (or a relative
# clause) and a few words, on one line.
QUALIFIER = (
    r"(?:\s+(?:for|to|of|on|at|in|from|with|that|which|they|you|we|i|he|she|my|your|our"
    r"|by|near|next|beside|behind|under|outside|inside"
    r"|für|zum|zur|vom|von|des|der|meiner|meines|meinem|deiner|unserer|du|de|del|della|dello"
    r"|μου|σου|του|της|των|στο|στη|για|של|שלי|ל\w+|ل\w+|بتاع\w*|الخاص\w*"
    r"|dei|da|do|dos|das|dla|od|от|для|till|för|til|på|af|van|voor|bij|di|per|pour|para|na"
    r"|k|ke|ku|za|pro|pre|до|від|к|по|của|cho|untuk|dari|pentru|la|ng|az|a)\b"
    r"[^\n:=]{0,40}?)?"
)
CLEAR = (
    r"\s*(?:[:=]|->|=>|→|⇒|—|–|(?<=\w)['’]s\b|\b(?:is|was|are|equals|ist|lautet|war|est|était"
    r"|es|era|é|è|är|var|er|jest|było|было|είναι|je|là|adalah|ialah|este|е|є|yra|ir)\b"
    r"|\?\s*it(?:['’]s| is)\b"  # "my PIN? it's 4821"
    r"|は|是|為|为|는|은|："
    # Arabic, Hebrew and Hindi "is" (Hindi's vowel signs are not word characters: no \b)
    r"|(?<=\s)(?:هي|هو|היא|הוא|है|हैं)(?=\s))"
    r"(?:\s*[:=])?(?:\s+(?:now|still|currently|jetzt|nun|maintenant|ahora|agora|ora|nu|teraz"
    r"|теперь|simply|just))?"
)
CHANGED = (
    r"\s+(?:(?:was|is|has been|got|been)\s+)?(?:changed|set|reset|updated)\s+to"
    r"|\s+(?:wurde\s+)?geändert\s+(?:auf|zu|in)|\s+(?:a été\s+)?changé\s+en"
    r"|\s+(?:opens|unlocks|is set)\s+(?:with|to)"
)
AMBIGUOUS = r"\s+(?:to|on|er|en|это)\b"


# Words that follow "my password is" in talk about a password, not in telling it.
COMMON_WORDS = frozenset(
    """
    the a an my your his her our their its this that it not no too very so still also just now
    same different wrong incorrect correct right invalid valid weak strong secure insecure safe
    unsafe long short expired expiring changed reset required needed missing lost forgotten
    saved stored written hidden encrypted hashed case sensitive easy hard simple complicated
    complex good bad fine ok okay great terrible unique something nothing anything everything
    one what which where there here in on at for to of with by from and or but if when because
    about like being been getting going set updated working broken blocked locked protected
    shared known public private generated random new old usually always never probably
    definitely actually really quite pretty rather much more less enough somewhere printed
    shown displayed visible managed taped stuck kept attached included provided sent emailed
    texted below above following optional mandatory
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

# Words of code that stand where a value would in prose ("if not password:\n    return").
CODE_WORDS = frozenset(
    "return pass none null nil true false self this def class if else elif import from print "
    "raise await async yield lambda const let var function new undefined".split()
)


# A word each name above holds (lowercase): text holding none of them (most chat) is passed
# over without the name scan, whose alternation costs about as much as the rest together.
# tests/trust/test_secret_detector.py checks that every text the name scan finds holds one of
# these.
KEYWORDS = (
    *"pass pw mdp clave parola kennwort contraseña senha palavra wachtwoord hasło haslo".split(),
    *"lösenord losenord passord adgangskode kodeord salasana şifre sifre пароль κωδικ".split(),
    *"كلمة סיסמ पासवर्ड कूटशब्द key schlüssel clé log user benutzer utilisateur usuario".split(),
    *"pin puk geheimzahl пин пук الرقم الرمز رمز पिन पासकोड קוד code combination combo".split(),
    *"alarm lock safe box código codice kod код kombination koodi cvv cvc csc cvn".split(),
    *"prüfnummer cryptogramme verification api token secret bearer chave chiave".split(),
    *"klucz ключ @".split(),
    *"パスワード 暗証番号 密码 密碼 비밀번호 암호 安全码 安全碼 セキュリティコード 보안".split(),
    *"hesl jelsz khẩu sandi laluan parol lozink лозинк gesl slaptaž salasõna парол".split(),
    *"contrasenya contrasinal pasahitza wagwoord lykilorð cyfrinair fjalëkalim nenosiri".split(),
    *"رمز گذرواژه پاس পাসওয়ার্ড கடவுச்சொல் პაროლი გასაღები գաղտնաբառ құпия".split(),
    *"口令 รหัส maiden memorable heitsantwort".split(),
    "phrase s",
    "phrase de",
    "frase s",
    "frase de",
    "security ans",
    "security question ans",
    "secret ans",
    "réponse s",
    "respuesta s",
    "respuesta de",
    *"combina kombina комбинац yhdistelm συνδυασ door gate entrance keypad".split(),
)
