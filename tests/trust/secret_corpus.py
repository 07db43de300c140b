"""The secret detector's corpus (kit/secrets/): secret forms as people paste or say them, and
ordinary texts written to look close to them. Every value here is made up (random, or a
provider's documented example); none is a real credential.

In a secret form the value that must be withheld is marked ⟦like this⟧ (a form may mark more
than one). A form counts as withheld when every marked value lies inside what the detector
withholds; the rest of the text should stay (what is withheld beyond the marks is counted too).
An ordinary text counts as touched when the detector withholds anything in it at all.

`python -m tests.trust.secret_rates` prints the rates (docs/security.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KEYS = "provider keys and tokens"
URLS = "secrets in URLs and webhooks"
PRIVATE = "private keys"
PW_EN = "passwords, English"
PW_INTL = "passwords, other languages"
CODES = "PINs and access codes"
CARDS = "cards and bank accounts"
RECOVERY = "recovery keys and 2FA seeds"
SEEDS = "seed phrases"
EVASIONS = "evasions"

_MARK = re.compile(r"⟦(.*?)⟧", re.DOTALL)


@dataclass(frozen=True)
class Form:
    family: str
    text: str  # without the marks
    values: tuple[tuple[int, int], ...]  # where the marked values sit in `text`


def form(family: str, marked: str) -> Form:
    text, values, at = [], [], 0
    for match in _MARK.finditer(marked):
        text.append(marked[at : match.start()])
        start = sum(map(len, text))
        text.append(match.group(1))
        values.append((start, start + len(match.group(1))))
        at = match.end()
    text.append(marked[at:])
    assert values, f"no value marked in {marked!r}"
    return Form(family, "".join(text), tuple(values))


_MARKED: tuple[tuple[str, str], ...] = (
    # -- provider keys and tokens (detect-secrets' plugins; gitleaks' published formats) ------
    (KEYS, "Stripe live key: ⟦sk_live_51HqLyjWDarjtT1zdp7dcXKfYx2Cf9kQb8T3wGpL0⟧"),
    (KEYS, "the restricted stripe key is ⟦rk_live_51HqLyjWDarjtT1zdp7dcXKfYx2Cf9k⟧"),
    (KEYS, "AWS access key id ⟦AKIAIOSFODNN7EXAMPLE⟧ for the backup bucket"),
    (KEYS, "aws secret access key ⟦wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY⟧, region eu-west-1"),
    (KEYS, "Google Maps key ⟦AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY⟧"),
    (KEYS, "my gitlab token ⟦glpat-xK3vQ9mZ2pL7nR4tY8wB⟧"),
    (KEYS, "HF token for the space: ⟦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⟧"),
    (KEYS, "the openai key ⟦sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f⟧"),
    (KEYS, "Anthropic: ⟦sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa⟧"),
    (KEYS, "GitHub PAT ⟦ghp_16C7e42F292c6912E7710c838347Ae178B4a⟧"),
    (
        KEYS,
        "fine-grained token "
        "⟦github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789AB⟧",
    ),
    (KEYS, "slack bot token ⟦xoxb-2345678901-3456789012345-AbCdEfGhIjKlMnOpQrStUvWx⟧"),
    (KEYS, "SendGrid ⟦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⟧"),
    (KEYS, "npm publish token ⟦npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8⟧"),
    (KEYS, "telegram bot ⟦5123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw8⟧"),
    (
        KEYS,
        "session jwt ⟦eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6Ik"
        "pvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c⟧",
    ),
    (KEYS, "the api key for the weather service is ⟦9f8e7d6c5b4a39281706f5e4d3c2b1a0⟧"),
    (KEYS, "Twilio API key ⟦SK2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d⟧"),
    (
        KEYS,
        "DefaultEndpointsProtocol=https;AccountName=kitstore;AccountKey=⟦lJzRc1YdHaAA2KCNJJ1tkYwF/"
        "+mKK6Ygw0NGe170Xu592euJv2wYUtBlV8z+qnlcNQSnIYVTkLWntUO1F8j8rQ==⟧",
    ),
    (KEYS, "here's the key: ⟦sk_live_4eC39HqLyjWDarjtT1zdp7dc⟧, don't share it"),
    (
        KEYS,
        "PyPI upload token ⟦pypi-AgEIcHlwaS5vcmcCJGE0ZjM5NzYtYjQ4Mi00ZDhkLWI5YTItMjE2ZGE1⟧",
    ),
    (KEYS, "Mailchimp API key ⟦0123456789abcdef0123456789abcdef-us14⟧"),
    (KEYS, "the client secret is ⟦7Qp2x9LmZ4vB8nR1tY6wK3sD⟧"),
    (KEYS, "Authorization: Bearer ⟦a8Fk2Lm9Qz4Xv7Bn1Rt5Yw3Hs6⟧"),
    (
        KEYS,
        "Vault token for the homelab: ⟦hvs.O0Dur-8_hW4p1yCcD_AN1Y-o5MgG_yG1FYmM-6uF_AuG5g0NyMPEX"
        "Yte3ZHKqqIW8lR2eC8SkkDBBx1Gxnq6Ig6c7s4H8p⟧",
    ),
    (KEYS, "export VAULT_TOKEN=⟦s.YiQ5Ca2qB1HA0X1fUx5QLTja⟧"),
    (KEYS, "shopify admin token ⟦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⟧ for the store"),
    (KEYS, "Shopify app shared secret: ⟦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⟧"),
    (
        KEYS,
        "DigitalOcean PAT "
        "⟦dop_v1_51c3df6647cceeb4b1ae013f13fef96805ce09f3b76039f308223a858da6c34e⟧",
    ),
    (KEYS, "databricks token ⟦dapi60d932c617a61ae9db3f22c976af8a26⟧ (workspace prod)"),
    (KEYS, "Google OAuth client secret ⟦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⟧"),
    (KEYS, "Postman API key ⟦PMAK-a1cdc66dca41c95abefd6a79-4ad9a0e6788ae76b0e341e314220834e76⟧"),
    (KEYS, "Mailgun private key: ⟦key-81a8c8c472825796c1658aeebf0d2d32⟧"),
    (KEYS, "Linear personal key ⟦lin_api_F2Oz0PPimHHi4emkfujHnDzz9rFfBFhyYEoFBFMx⟧"),
    (KEYS, "DOPPLER_TOKEN=⟦dp.pt.nbRIRXUkGRZtEhZ4nu8dUNfWaN4CX5oywtiUcDgJeDV⟧"),
    (KEYS, "perplexity: ⟦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⟧"),
    (
        KEYS,
        "Sentry user token "
        "⟦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⟧",
    ),
    (KEYS, "pulumi login token ⟦pul-7a318e24d483d3f242d7879680aa3c57f649c614⟧"),
    (KEYS, "gem push credentials ⟦rubygems_e61de9d59bc50bffecaacd3924a36d6401857f9b1b2a0f73⟧"),
    (KEYS, "the Notion integration secret ⟦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⟧"),
    (KEYS, "grafana SA token ⟦glsa_huwiVO5U3EOniqPOHam866JgWtmALj6A_9cca9cca⟧"),
    (KEYS, "I put ⟦ghp_nv0IpvQ32kkRx3garYN22NsO5BR3ubsS6WXu⟧ in ~/.netrc for now"),
    (KEYS, "Google access token ⟦ya29.a0AfB_byCq7Rk2pX9vL4mN8sT1wZ3yH6jD5fG0bQ⟧ expires in 1 h"),
    # -- secrets inside URLs and webhooks --------------------------------------------------------
    (URLS, "db is postgres://kit:⟦Sup3rS3cret⟧@db.example.com:5432/kit"),
    (URLS, "mongodb+srv://admin:⟦Kitty2024x⟧@cluster0.example.net/app"),
    (URLS, "backups go to ftp://backup:⟦Zx81!spectrum⟧@nas.local/share"),
    (URLS, "clone https://ana:⟦pa55w0rd-home⟧@git.example.org/family/photos.git"),
    (URLS, "redis://:⟦S3cretRedis99⟧@cache.local:6379/0"),
    (
        URLS,
        "discord alerts ⟦https://discord.com/api/webhooks/1234567890123456789/Y5XyC96BlbVENP2FW_WI"
        "V3"
        "xnR4MmbP1T53BF6WFhsdpLS39CllMBbc8xgAGQteAiKMy-⟧",
    ),
    (
        URLS,
        "slack hook ⟦https://hooks.slack.com/services/T0OXY7XTOM/B0CWF8RFEA/3fmA8pWuU5miyGy8K6A1tb"
        "xV⟧",
    ),
    (
        URLS,
        "SAS url https://kitstore.blob.core.windows.net/backups?sv=2022-11-02&ss=bfqt&srt=sco"
        "&sp=rwdlacupiytfx&se=2026-12-31T23:59:59Z&spr=https"
        "&sig=⟦TKa8UbYQFb9ht0ve6NznXyzr9OJh4Z%2BP4sSnTRaCv%3D⟧",
    ),
    (
        URLS,
        "the feed is https://api.example.com/v1/data?api_key=⟦a8Fk2Lm9Qz4Xv7Bn1Rt5Yw3H⟧&fmt=csv",
    ),
    (
        URLS,
        "callback went to https://app.example.com/cb#access_token=⟦Zq81LmP0xV7cT4rN2yB9⟧&exp=3600",
    ),
    # -- private keys ---------------------------------------------------------------------------
    (PRIVATE, "⟦-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7bq9\n-----END RSA⟧"),
    (PRIVATE, "⟦-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAABG5vbmU⟧"),
    (PRIVATE, "⟦-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF0Ld6gBCAC7⟧"),
    (PRIVATE, "⟦-----BEGIN EC PRIVATE KEY----- MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5⟧"),
    (PRIVATE, "⟦-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC⟧"),
    (
        PRIVATE,
        "old laptop key:\n⟦-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkq"
        "hk"
        "iG9w0BBQwwHAQI\n-----END ENCRYPTED PRIVATE KEY-----⟧\nthat's all",
    ),
    (
        PRIVATE,
        "⟦-----BEGIN DSA PRIVATE KEY-----\nMIIBuwIBAAKBgQC3Rf4n5k0Wbg4c\n"
        "-----END DSA PRIVATE KEY-----⟧",
    ),
    (
        PRIVATE,
        "the deploy key body, without the header:\n⟦b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAA"
        "AA"
        "AAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDhZ3bHw2l1tK9pQ3mXy0o7rN4sV8uJ1cE6fT2aB5dG9wAAAJgx⟧",
    ),
    (
        PRIVATE,
        "⟦MIIEpAIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7Qk"
        "rmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW⟧",
    ),
    (
        PRIVATE,
        "key for the bot, PKCS8: ⟦MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us⟧",
    ),
    (
        PRIVATE,
        "MetaMask private key: ⟦b8570e049f077ec73879b1f8909907316e1d7e96b57cff371136210cc3767237⟧",
    ),
    (
        PRIVATE,
        "eth priv key ⟦0xb889aeef35c5083db85be4e77e317755472268c5279092db91840d909b2f9ae2⟧ (old ac"
        "ct)",
    ),
    (PRIVATE, "sweep this one: ⟦5HrqchSRsRug5QREdHTnCNrST6HG7M1X95QrvMHpyeN1LnYGFmU⟧"),
    (PRIVATE, "paper wallet ⟦Kwnk3KwungEpSss1HgNnBn42ZjB4132Z8LqY1fboYpfQdkgB3EVn⟧"),
    (
        PRIVATE,
        "⟦xprv9s21ZrQH143K38m7HHzkQv75e6rHqhD82UgyaNphSczWgSKJU5XWhvHm74ai3ufRUygMRyTMosw3caa7UfDoi"
        "FM6wYUeALfMttMPxHHB47y⟧",
    ),
    (
        PRIVATE,
        "age identity ⟦AGE-SECRET-KEY-1DUGRA09VMGREQSYRNJE0E9YSMVGTTN00DGWFUW6K97NT2FH2JPQTXJMXVA⟧",
    ),
    # -- passwords said in English ----------------------------------------------------------------
    (PW_EN, "My password is ⟦hunter2⟧"),
    (PW_EN, "The password for the office wifi is ⟦Tr0ub4dor&3⟧"),
    (PW_EN, "wifi pw: ⟦greenfield-2024⟧"),
    (PW_EN, "Netflix login: ana@example.com / ⟦Sunflower88!⟧"),
    (PW_EN, "use '⟦purple monkey dishwasher⟧' as the passphrase"),
    (PW_EN, "the router admin password = ⟦Adm1nR0uter⟧"),
    (PW_EN, "my email password is now ⟦MaryHadALittleLamb⟧"),
    (PW_EN, "the password to my laptop is ⟦sunshine⟧"),
    (PW_EN, 'Remember the VPN password: "⟦q8#Lm2!x⟧"'),
    (PW_EN, "Ana's Instagram password was changed to ⟦Pa55word!⟧"),
    (PW_EN, "Password: ⟦Xk9#mQ2!⟧"),
    (PW_EN, "my Apple ID password is ⟦BlueSky!2020⟧"),
    (PW_EN, "note to self, gmail pass = ⟦wintergarden77⟧"),
    (PW_EN, "Netflix: ana@example.com / ⟦Hunter2024!⟧"),
    (PW_EN, "Spotify – ana.silva@example.com – ⟦Pl4ylist#9⟧"),
    (PW_EN, "wifi key: ⟦BlueSky-4471⟧"),
    (PW_EN, "The WPA2 key for the guest network is ⟦Gu3st-Net-77⟧"),
    (PW_EN, "router login admin / ⟦Adm1n!2023⟧"),
    (PW_EN, "pw for the NAS is ⟦Nas_Box_2024⟧"),
    (PW_EN, 'the passphrase is "⟦correct horse battery staple⟧"'),
    (PW_EN, "School portal. user: ana.silva, pass: ⟦Escola2025!⟧"),
    (PW_EN, "the master password for 1Password is ⟦Tangerine-Orbit-42⟧"),
    (PW_EN, "Apple ID ana@icloud.com pw ⟦Maple!Leaf88⟧"),
    (PW_EN, "⟦Blue42!Moon⟧ is my password for everything, don't tell anyone"),
    (PW_EN, "Kindle: ana.silva@example.com, password ⟦Reading4Ever⟧"),
    # -- passwords said in other languages ---------------------------------------------------------
    (PW_INTL, "Mein Passwort ist ⟦Sommer2024!⟧"),
    (PW_INTL, "Das WLAN-Kennwort lautet ⟦Hausboot77⟧"),
    (PW_INTL, "Kennwort für das Büro: ⟦Buero#2024⟧"),
    (PW_INTL, "mon mot de passe est ⟦Chaton#42⟧"),
    (PW_INTL, "Le mot de passe du wifi : ⟦maison1987⟧"),
    (PW_INTL, "mi contraseña es ⟦Gatito_2023⟧"),
    (PW_INTL, "La clave del wifi es ⟦casaazul99⟧"),
    (PW_INTL, "Mi password del correo es ⟦Perrito!9⟧"),
    (PW_INTL, "a minha senha é ⟦Lisboa2025⟧"),
    (PW_INTL, "A senha do wi-fi é ⟦casa2024⟧"),
    (PW_INTL, "la mia password è ⟦Pizza4ever⟧"),
    (PW_INTL, "la password del wifi è ⟦Gelato_99⟧"),
    (PW_INTL, "mijn wachtwoord is ⟦Fiets!123⟧"),
    (PW_INTL, "Het wachtwoord van de router: ⟦Tulp2023⟧"),
    (PW_INTL, "moje hasło to ⟦Kotek2024⟧"),
    (PW_INTL, "hasło do wifi: ⟦Zamek!55⟧"),
    (PW_INTL, "lösenordet till wifi är ⟦Sommar2024⟧"),
    (PW_INTL, "mitt lösenord är ⟦Älg2024!⟧"),
    (PW_INTL, "passordet til wifi er ⟦Fjord2024!⟧"),
    (PW_INTL, "adgangskoden er ⟦Hygge#77⟧"),
    (PW_INTL, "salasana on ⟦Kissa123⟧"),
    (PW_INTL, "şifrem ⟦Istanbul34!⟧"),
    (PW_INTL, "wifi şifresi: ⟦Kedi1234⟧"),
    (PW_INTL, "мой пароль от почты: ⟦Kotik2024⟧"),
    (PW_INTL, "пароль: ⟦Medved2023!⟧"),
    (PW_INTL, "пароль от вайфая — ⟦Moskva_2024⟧"),
    (PW_INTL, "κωδικός: ⟦Athina2024⟧"),
    (PW_INTL, "ο κωδικός μου είναι ⟦Thalassa!7⟧"),
    (PW_INTL, "كلمة المرور هي ⟦Falcon2024!⟧"),
    (PW_INTL, "كلمة السر للواي فاي: ⟦Sahara_88⟧"),
    (PW_INTL, "הסיסמה שלי היא ⟦Shalom2024!⟧"),
    (PW_INTL, "סיסמה לוויפי: ⟦Tel-Aviv77⟧"),
    (PW_INTL, "मेरा पासवर्ड ⟦Dilli@2024⟧ है"),
    (PW_INTL, "वाईफाई का पासवर्ड है ⟦Chai#786⟧"),
    (PW_INTL, "パスワードは ⟦sakura2024⟧ です"),
    (PW_INTL, "我的密码是 ⟦wang1234⟧"),
    (PW_INTL, "비밀번호는 ⟦kimchi77⟧ 입니다"),
    # -- PINs and access codes ---------------------------------------------------------------------
    (CODES, "My bank card PIN is ⟦4821⟧"),
    (CODES, "PIN: ⟦0915⟧"),
    (CODES, "The gate code is ⟦4711⟧"),
    (CODES, "door code ⟦2580#⟧"),
    (CODES, "The alarm code for the house is ⟦9142⟧"),
    (CODES, "the safe combination is ⟦12-34-56⟧"),
    (CODES, "Der Türcode ist ⟦1357⟧"),
    (CODES, "le digicode est ⟦4B27A⟧"),
    (CODES, "el código de la alarma es ⟦8080⟧"),
    (CODES, "my 2FA backup code is ⟦8374-2291⟧"),
    (CODES, "the garage door opener code is ⟦6262⟧"),
    (CODES, "the code to unlock my phone is ⟦1397⟧"),
    (CODES, "Code für die Haustür: ⟦2468⟧"),
    (CODES, "my phone PIN is ⟦5555⟧"),
    (CODES, "the lockbox combination is ⟦3-1-4-1⟧"),
    (CODES, "the verification code they sent is ⟦482913⟧"),
    (CODES, "my SIM PUK is ⟦73920184⟧"),
    (CODES, "PUK-Code: ⟦48213907⟧"),
    (CODES, "key safe code ⟦4071⟧, it's on the wall left of the door"),
    (CODES, "the key box by the cottage door opens with ⟦1966⟧"),
    (CODES, "bike lock combination ⟦0-4-7-1⟧"),
    (CODES, "padlock combo: ⟦3719⟧"),
    (CODES, "the alarm panel code is ⟦7731#⟧"),
    (CODES, "alarm disarm code ⟦9142⟧"),
    (CODES, "Die PIN meiner EC-Karte ist ⟦7305⟧"),
    (CODES, "Schlüsseltresor-Code: ⟦1408⟧"),
    (CODES, "le code de l'alarme est ⟦2709⟧"),
    (CODES, "code PIN : ⟦5094⟧"),
    (CODES, "el PIN de la tarjeta es ⟦6183⟧"),
    (CODES, "o código do portão é ⟦4455⟧"),
    (CODES, "il codice del cancello è ⟦1793⟧"),
    (CODES, "de pincode is ⟦9021⟧"),
    (CODES, "kod do bramy: ⟦5566⟧"),
    (CODES, "пин-код карты ⟦3927⟧"),
    (CODES, "код домофона: ⟦4578⟧"),
    (CODES, "portkoden är ⟦8042⟧"),
    (CODES, "PIN-koden er ⟦6710⟧"),
    (CODES, "PIN-koodi on ⟦4410⟧"),
    (CODES, "kapı şifresi ⟦2580⟧"),
    (CODES, "ο κωδικός του συναγερμού είναι ⟦3344⟧"),
    (CODES, "الرقم السري للبطاقة ⟦4829⟧"),
    (CODES, "הקוד של הדלת הוא ⟦1357⟧"),
    (CODES, "मेरा पिन ⟦4821⟧ है"),
    (CODES, "暗証番号は⟦4821⟧です"),
    (CODES, "门禁密码是⟦2580⟧"),
    (CODES, "현관 비밀번호는 ⟦1357*⟧"),
    # -- cards and bank accounts -------------------------------------------------------------------
    (CARDS, "Visa ⟦4111 1111 1111 1111⟧ exp 09/27"),
    (CARDS, "card number ⟦5500-0000-0000-0004⟧"),
    (CARDS, "my card is ⟦4012.8888.8888.1881⟧"),
    (CARDS, "Amex ⟦378282246310005⟧"),
    (CARDS, "the CVV is ⟦737⟧"),
    (CARDS, "security code on the back: ⟦4242⟧"),
    (CARDS, "CVC ⟦123⟧, expiry 12/26"),
    (CARDS, "IBAN ⟦DE89 3704 0044 0532 0130 00⟧"),
    (CARDS, "send it to ⟦GB82WEST12345698765432⟧"),
    (CARDS, "mon IBAN : ⟦FR14 2004 1010 0505 0001 3M02 606⟧"),
    (CARDS, "rekening ⟦NL91ABNA0417164300⟧ op naam van Jan"),
    (CARDS, "Mastercard ⟦5425233430109903⟧ exp 04/28 cvc ⟦271⟧"),
    (CARDS, "IBAN: ⟦ES91 2100 0418 4502 0005 1332⟧"),
    (CARDS, "Kontonummer ⟦DE44500105175407324931⟧"),
    # -- recovery keys and 2FA seeds ---------------------------------------------------------------
    (RECOVERY, "TOTP secret: ⟦ZQWR36WQNVSEREYYRMW2KUWMNVBYMJZT⟧"),
    (RECOVERY, "authenticator setup key ⟦lw2s nyka qpg2 7thx⟧"),
    (RECOVERY, "2FA seed for GitHub: ⟦LW2S NYKA QPG2 7THX⟧"),
    (
        RECOVERY,
        "otpauth://totp/Example:ana@example.com?secret=⟦JBSWY3DPEHPK3PXP⟧&issuer=Example",
    ),
    (RECOVERY, "Apple recovery key ⟦OI01-5IJR-7CZX-W48E-DTJO-899O-I1IL⟧"),
    (RECOVERY, "FileVault recovery key: ⟦X2DU-FCNJ-VSSH-B6QG-UAYC-YNCN⟧"),
    (
        RECOVERY,
        "BitLocker recovery key ⟦620653-122177-479061-296219-148467-063481-341253-223311⟧",
    ),
    (RECOVERY, "⟦620653-122177-479061-296219-148467-063481-341253-223311⟧ (the work laptop)"),
    (RECOVERY, "Microsoft recovery code: ⟦QW8RT-2YUP4-ZX7CV-9BNM3-KL5JH⟧"),
    (RECOVERY, "1Password secret key ⟦A3-ABC123-DEF456-GHIJK-LMNOP-QRSTU⟧"),
    (RECOVERY, "GitHub backup codes: ⟦4f7a9-2c1e8⟧"),
    # -- seed phrases ------------------------------------------------------------------------------
    (
        SEEDS,
        "seed: ⟦abandon ability able about above absent absorb abstract absurd abuse access "
        "accident⟧",
    ),
    (
        SEEDS,
        "1. ⟦legal 2. winner 3. thank 4. year 5. wave 6. sausage 7. worth 8. useful 9. legal "
        "10. winner 11. thank 12. yellow⟧",
    ),
    (
        SEEDS,
        "my wallet words are ⟦zoo, zone, zero, youth, young, yellow, year, wrong, write, wrist, "
        "wreck, wrap⟧",
    ),
    (
        SEEDS,
        "recovery phrase: ⟦void come effort suffer camp survey warrior heavy shoot primary clutch "
        "crush open amazing screen patrol group space point ten exist slush involve unfold⟧",
    ),
    (
        SEEDS,
        "frase semilla: ⟦ábaco abdomen abeja abierto abogado abono aborto abrazo abrir abuelo "
        "abuso acabar⟧",
    ),
    (
        SEEDS,
        "⟦supply\ncrater\nliar\nspot\ninmate\ndigital\nalarm\ntimber\nfence\ndemand\nopera\n"
        "athlete⟧",
    ),
    (
        SEEDS,
        "⟦theory federal repeat wink tell alpha tiny will camp budget ladder lazy latin bleak "
        "energy scare evidence pottery ask gesture direct meat fog average⟧",
    ),
    (
        SEEDS,
        "Ledger backup\n⟦figure silly wing below put crazy connect used roast penalty plunge roast "
        "intact mimic amused⟧",
    ),
    (
        SEEDS,
        "mis palabras: ⟦agua llegar punto centro trote amasar vuelo inerte polvo adicto finca meta"
        "⟧",
    ),
    # An old Electrum seed: its wordlist is not BIP-39's (a known miss, see KNOWN_MISSES).
    (
        SEEDS,
        "backup words: ⟦witch collapse practice feed shame open despair creek road again ice "
        "least⟧",
    ),
    # -- evasions: invisible characters, fullwidth, look-alike letters, leetspeak, line breaks ----
    (EVASIONS, "pass\u200bword: ⟦Hunter2024!⟧"),
    (EVASIONS, "my pass\u200dword is ⟦Orchid#5521⟧"),
    (EVASIONS, "pass\u00adword: ⟦Lemon-Tree-8⟧"),
    (EVASIONS, "GitHub token ⟦ghp_nv0IpvQ32kkR\u200bx3garYN22NsO5BR3ubsS6WXu⟧"),
    (EVASIONS, "ｐａｓｓｗｏｒｄ： ⟦Ｈｕｎｔｅｒ２０２４⟧"),
    (EVASIONS, "key ⟦ｓｋ＿ｌｉｖｅ＿５１ＨｑＬｙｊＷＤａｒｊｔＴ１ｚｄｐ７ｄｃ⟧"),
    (EVASIONS, "my раssword is ⟦Hunter2024!⟧"),  # Cyrillic р and а
    (EVASIONS, "pαsswοrd = ⟦Winter#2025⟧"),  # Greek α and ο
    (EVASIONS, "token ⟦ghр_16C7e42F292c6912E7710c838347Ae178B4a⟧"),  # Cyrillic р
    (EVASIONS, "p4ssw0rd: ⟦Sunny!88⟧"),
    (EVASIONS, "the wifi pa$$word is ⟦Tulip-Field-3⟧"),
    (EVASIONS, "P@SSW0RD = ⟦Gr33nTea⟧"),
    (EVASIONS, "Password:\n⟦Hunter2024!⟧"),
    (EVASIONS, "username: ana\npassword:\n⟦Tulip!2025⟧"),
    (EVASIONS, "stripe: ⟦sk_live_51HqLyjWDarjt\nT1zdp7dcXKfYx2Cf9kQb8T3⟧"),
    (EVASIONS, "IBAN ⟦DE89 3704 0044\n0532 0130 00⟧"),
    (EVASIONS, "card ⟦4111 1111\n1111 1111⟧ exp 09/27"),
    (EVASIONS, "the PIN is ⟦4\u200b8\u200b2\u200b1⟧"),
    (EVASIONS, "PIN: ⟦４８２１⟧"),
    # -- written after the detector was tuned on everything above, measured before any fix ----
    (CODES, "To disarm the alarm: ⟦9142⟧"),
    (CODES, "the alarm's code is ⟦9142⟧"),
    (CODES, "Alarm (house): ⟦9142#⟧"),
    (CODES, "the bike lock is ⟦0471⟧"),
    (CODES, "Combination for the bike lock: ⟦0471⟧"),
    (CODES, "suitcase lock ⟦482⟧"),
    (CODES, "my PIN for the parking garage gate: ⟦5521⟧"),
    (CODES, "iPhone passcode ⟦271828⟧"),
    (CODES, "mon code de carte bleue est ⟦4821⟧"),
    (CODES, "la clave de la tarjeta es ⟦4821⟧"),
    (CODES, "PIN ⟦4-8-2-1⟧"),
    (CARDS, "安全码是⟦737⟧"),
    (PW_EN, "Gmail app password: ⟦abcd efgh ijkl mnop⟧"),
    (PW_EN, "login ana.silva pw ⟦Blue!Bird42⟧"),
    (PW_EN, "new pass for the bank app → ⟦Banco$2025⟧"),
    (PW_EN, "ssh key passphrase: ⟦Mountain Goat 88⟧"),
    (PW_EN, "Wi-Fi password ⟦SunnyDay2024⟧"),
    (PW_EN, "PGP passphrase is ⟦Tuesday-Kite-19⟧"),
    (PW_EN, "DB_PASSWORD=⟦Sup3rS3cr3t!⟧"),
    (PW_INTL, "Mot de passe Netflix : ⟦Chocolat!12⟧"),
    (PW_INTL, "Passwort fürs Online-Banking: ⟦Sparkasse#88⟧"),
    (PW_INTL, "contraseña del router: ⟦Router_2025!⟧"),
    (
        KEYS,
        "OpenAI key: ⟦sk-svcacct-ZWzwDFrlGXl_z1BVXBt7wRkl8OZfIa2AUk7z7gTqBu4wweocv81k2lsNaWT3Blbk"
        "FJQrZzhB4GZqT8hqt0pmpsLww0sAO-DGpUxjKbgRBWZRZX1VlxeVZ4DNCNnO⟧",
    ),
    (KEYS, "Heroku API key ⟦HRKU-AABFXL4k41GiLP9qG3L0uKW4yWRzSaTLyvH1D0SZaozaNv4AH17KzcnNjeh1⟧"),
    (KEYS, "export GITHUB_TOKEN=⟦ghp_txJO8TLKsmWg3YzzYlqDvi4i5C32SSyAJ9Tl⟧"),
    (PRIVATE, "Bitcoin private key ⟦Kwnk3KwungEpSss1HgNnBn42ZjB4132Z8LqY1fboYpfQdkgB3EVn⟧"),
    (
        SEEDS,
        "the seed words for my Trezor are ⟦review addict permit swear curious kit snap shadow kit "
        "flag solid expand⟧",
    ),
    (RECOVERY, "my Coinbase 2FA backup: ⟦7H3K PQ2M ZX5L R8TN⟧"),
)

SECRETS: tuple[Form, ...] = tuple(form(family, text) for family, text in _MARKED)

# The forms the detector is known to miss, each with its reason (docs/security.md counts them).
KNOWN_MISSES = {
    # Electrum's old seed wordlist is not BIP-39's; only BIP-39 lists are checked.
    "backup words: witch collapse practice feed shame open despair creek road again ice least",
}

# Ordinary sentences from assistant conversations, written before the last round (near misses).
_CHAT: tuple[str, ...] = (
    "I forgot my password again, can you remind me how to reset it?",
    "I need to change my password this week",
    "The owner uses a password manager",
    "My password is too long for that site",
    "the password is wrong, it keeps rejecting it",
    "What's the password policy at work? Twelve characters minimum.",
    "My password is the same as my old one, I should change it",
    "Remind me to reset the wifi password tomorrow",
    "She asked for the PIN but I didn't give it",
    "I need a new PIN for my card",
    "Pinned the message about the trip",
    "The meeting code of conduct is on the wiki",
    "The dress code is smart casual",
    "The zip code is 10115",
    "Our postcode is SW1A 1AA",
    "The area code for Lisbon is 21",
    "Use the promo code SPRING20 for 20% off",
    "The error code is 404",
    "The tracking code is 1Z999AA10123456784",
    "The code is on GitHub under kit/secrets",
    "I wrote the code for the gate controller last night",
    "my phone number is +351 912 345 678",
    "Call me at 415-555-0132",
    "Order 1234 5678 9012 arrived",
    "Order number 112-4567890-1234567 was shipped",
    "Invoice INV-2024-00123 is due on 3 March",
    "It cost €1,234.56 in the end",
    "The flight is TAP 1234 on 2026-03-01 at 10:45",
    "We meet on 12.03.2026 at 14:00",
    "The room is 4.12 and the building is C",
    "ISBN 978-3-16-148410-0",
    "The commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it",
    "Version 1.2.3 broke the build, 1.2.4 fixed it",
    "The meeting ID is 845 2291 0934",
    "The flat number is 4111",
    "Ana's birthday is on 3 May",
    "Ana is the owner's sister and lives in Porto",
    "My token of appreciation was a bottle of wine",
    "I got the secret recipe from my grandmother",
    "It's no secret that I love ramen",
    "The API key rotation is scheduled for Friday",
    "Where do I find the API key settings?",
    "The key is under the mat, ask Bruno",
    "I lost the key to the shed",
    "The keynote is at 9 and the keys are at the front desk",
    "abandon the plan, it is too expensive",
    "My favorite words are about, above, and across",
    "Can you generate a strong password for me?",
    "A good password has at least twelve characters",
    "The new security code of practice starts in April",
    "He said the code review is tomorrow",
    "The gate is closed on Sundays",
    "The alarm goes off at 6:30",
    "The door was locked at 22:00",
    "Ich habe mein Passwort vergessen",
    "Das Passwort ist zu kurz",
    "J'ai oublié mon mot de passe",
    "Le mot de passe est trop court",
    "Olvidé mi contraseña otra vez",
    "Esqueci a minha senha",
    "Ho dimenticato la password",
    "Ik ben mijn wachtwoord vergeten",
    "Zapomniałem hasła",
    "Я забыл пароль",
    "パスワードを忘れました",
    "我忘记密码了",
    "The IBAN is on the invoice, I'll check later",
    "The CVV is on the back of the card",
    "Do you know what a seed phrase is?",
    "The sum was 4111 euros plus 1111 for tax",
    "Between 2019 and 2023 I moved four times",
    "We booked 3 nights for 2 people at 180 a night",
    "The train leaves at 08:15 from platform 7",
    "I ran 10 km in 52 minutes",
    "Temperature was 21.5 degrees at noon",
    "The recipe needs 250 g flour, 3 eggs and 1 cup of milk",
    "https://example.com/articles/2024/05/how-to-bake-sourdough-bread",
    "See /home/ana/projects/kit/secrets/README.md",
    "Donaudampfschifffahrtsgesellschaftskapitän is a long German word",
    "Supercalifragilisticexpialidocious was her favourite song",
    "The UUID of the job is 123e4567-e89b-12d3-a456-426614174000",
    "The sha256 is e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "My username is ana_silva84",
    "Her email is ana.silva@example.com",
    "The Wi-Fi network is called Casa_Azul_5G",
    "Log in with your usual account, the one from work",
    "Authentication failed because the token expired",
    "Bearer tokens are sent in the Authorization header",
    "The session lasts 30 minutes",
    "The password field should be hidden in the form",
    "Grandma's secret is more butter",
    "Remember that Bruno's PIN-up calendar is a joke gift",
    "The safe is in the bedroom closet",
    "Combination therapy worked well for him",
    "The access code of the course is on the syllabus",
    "My blood pressure was 120/80",
    "The score ended 3-1",
    "I'll pay the 1,500.00 deposit by 2026-04-01",
    "He was born in 1985 and moved to Berlin in 2010",
    "My seat is 14C and the gate is B22",
    "My password manager locked me out this morning",
    "The password reset email never arrived",
    "She changed her password after the breach",
    "Is 'password123' really still the most common password?",
    "The PIN pad at the shop was broken",
    "The door code changed last week, I'll ask the landlord",
    "We need a gate code for the delivery guy",
    "Our access badge expires on 31 December",
    "The secret ingredient is smoked paprika",
    "He kept the surprise party a secret until 8 pm",
    "The token system at the deli is confusing",
    "My card was declined at the supermarket",
    "I paid with the card ending in 4242",
    "The bank transfer of 250 euros is done",
    "My locker is number 112 in the changing room",
    "The combination of rice and beans is cheap",
    "Security at the airport took 40 minutes",
    "The verification took two days",
    "I passed the exam with 87 points",
    "We passed Porto at 11:30 and reached Lisbon by 15:00",
    "The password is something only you know, never share it",
    "Le code de la route a changé en 2024",
    "El código postal es 28013",
    "Die Postleitzahl ist 10115",
    "Il codice fiscale è sul documento",
    "The kids learned about abandon, ability and able in spelling class",
    "Buy milk, eggs, bread, butter, cheese, apples, bananas, rice, pasta, tomatoes, onions, garlic",
    "Call the school at 020 7946 0958 about the trip",
    "The invoice total was 1.234,56 EUR",
    "Booking reference is XK7P2Q",
    "The Wi-Fi is slow again in the living room",
    "I set a reminder for 2026-05-04 09:00",
    "Her office is room 3.041 on the third floor",
    "The package tracking number is 9400 1000 0000 0000 0000 00",
    "Serial number SN-4829-1173-0042 is on the back of the router",
)

# Ordinary texts written for this round to sit close to the secret forms above: lists of words
# that are all in the BIP-39 wordlist, numbers in the shapes of cards, codes and keys, public
# keys and addresses, hashes, and talk about passwords and codes in the detector's languages.
_CLOSE: tuple[tuple[str, str], ...] = (
    # shopping and packing lists (every word of the first ones is a BIP-39 word)
    (
        "lists",
        "apple\nbanana\nbread\nbutter\ncheese\ncoffee\negg\ngarlic\nlemon\nmilk\nonion\norange\n"
        "pepper\nrice\nsugar",
    ),
    ("lists", "milk eggs bread butter cheese apples bananas rice pasta tomatoes onions garlic"),
    (
        "lists",
        "Shopping list:\nchicken\nsalmon\nbroccoli\nmushroom\npotato\ntomato\nolive\noil\nsalt\n"
        "honey\nginger\ncinnamon",
    ),
    (
        "lists",
        "soup, salad, pizza, noodle, sausage, bacon, cereal, juice, wine, soda, water, nut, "
        "peanut, walnut, coconut, mango, cherry, grape, pear, fruit",
    ),
    (
        "lists",
        "avocado\ncorn\nbean\nrice\ncheese\ncream\nsauce\nlemon\nonion\ngarlic\npepper\nsalt",
    ),
    ("lists", "napkin paper tissue soap brush razor sponge cable lamp basket jar tray"),
    (
        "lists",
        "Packing: passport, tickets, charger, sunscreen, camera, umbrella, jacket, hat, shoe, "
        "sock, dress, book, pen, phone, laptop, cable",
    ),
    (
        "lists",
        "camping\ntent\nstove\nlamp\nrope\nknife\nblanket\nwater\nmap\nwhistle\nbattery\nmatches",
    ),
    (
        "lists",
        "1. milk 2. bread 3. egg 4. butter 5. cheese 6. apple 7. banana 8. coffee 9. sugar "
        "10. rice 11. salt 12. oil",
    ),
    ("lists", "todo: call mum, pay rent, fix bike, buy stamps, return library book, water plants"),
    (
        "lists",
        "Seeds to order: tomato, pepper, pumpkin, bean, corn, onion, garlic, lettuce, basil, "
        "carrot, melon, sunflower",
    ),
    (
        "lists",
        "kids' spelling words: ability able about above absent absorb abstract absurd abuse "
        "access accident account accuse achieve acid",
    ),
    (
        "lists",
        "gift ideas\nbook\ncandle\nblanket\ncoffee\nchocolate\nwine\nscarf\nglove\numbrella\n"
        "camera\nheadphones",
    ),
    # recipes
    (
        "recipes",
        "Pancakes: 200 g flour, 2 eggs, 300 ml milk, 1 tbsp sugar, a pinch of salt. Whisk, rest "
        "30 min, fry 2 min a side at 180 °C.",
    ),
    (
        "recipes",
        "Bake at 220C for 25-30 min, then 180C for 10. Ratio 1:2:3 sugar:butter:flour.",
    ),
    (
        "recipes",
        "Grandma's secret sauce: tomato, garlic, olive oil, salt, pepper, a little sugar, basil",
    ),
    (
        "recipes",
        "Caipirinha: 1 lime, 2 tsp sugar, 50 ml cachaça, crushed ice. Serves 1.",
    ),
    ("recipes", "Sourdough: 500g flour / 350g water / 100g starter / 10g salt, bulk 4-5 h"),
    ("recipes", "Massa: 250 g de farinha, 3 ovos, 1 colher de sal, forno a 200 graus"),
    # addresses
    ("addresses", "Rua Augusta 1234, 1100-048 Lisboa, Portugal"),
    ("addresses", "221B Baker Street, London NW1 6XE"),
    ("addresses", "Flat 4, 12 Park Road, Manchester M14 5AB"),
    ("addresses", "Kurfürstendamm 21, 10719 Berlin, 3. OG links"),
    ("addresses", "Apt 5B, 350 Fifth Avenue, New York, NY 10118"),
    ("addresses", "Calle de Alcalá 48, 4º izq., 28014 Madrid"),
    ("addresses", "ul. Marszałkowska 84/92 m. 109, 00-514 Warszawa"),
    ("addresses", "東京都千代田区丸の内1-9-1"),
    # order numbers, bookings and references
    ("orders", "Amazon order 114-3941689-8772232 arrives Thursday"),
    ("orders", "Your order #A7X-99231-QP has shipped"),
    ("orders", "Order ZK-4821-9930-1177 ships Monday"),
    ("orders", "Bestellnummer 302-5567-1123, Lieferung am Freitag"),
    ("orders", "Case number 4111-2222-3333 with the insurance"),
    ("orders", "Customer no. 4012 8888 88, contract 55-120-993"),
    ("orders", "Tracking: 1Z 999 AA1 01 2345 6784"),
    ("orders", "DHL Sendungsnummer 00340434161094042557"),
    ("orders", "Reference RF18 5390 0754 7034 on the invoice"),
    ("orders", "IKEA article 702.611.50, shelf 23, bin 4"),
    ("orders", "The barcode says 4006381333931"),
    ("orders", "VIN 1HGCM82633A004352 on the registration"),
    ("orders", "licence plate AB-12-CD, parked on level 3"),
    # flights and travel
    ("flights", "LH1234 FRA→LIS dep 07:45, seat 23A, PNR K7QX2M"),
    ("flights", "Flight BA 2490 boards at gate A12 at 14:05"),
    ("flights", "Booking ref ABC12D, ferry 08:30, cabin 4127"),
    ("flights", "Train ICE 597 Wagen 26 Platz 71, Abfahrt 09:13"),
    ("flights", "TP1350 LIS-OPO 2026-03-01 10:45, e-ticket 047-2191234567"),
    ("flights", "Hotel confirmation 84729331, check-in 15:00, room 1408"),
    # hex colours and design
    ("colours", "#1E90FF for the header, #FF6347 for the buttons"),
    ("colours", "rgb(30,144,255) aka 1E90FF, or hsl(210 100% 56%)"),
    ("colours", "Palette: #264653 #2a9d8f #e9c46a #f4a261 #e76f51"),
    # versions and software
    ("versions", "upgraded to v2.14.0-rc.3+build.5521"),
    ("versions", "Python 3.12.1, numpy 1.26.4, torch 2.2.0+cu121"),
    ("versions", "firmware 4.2.1.8832-beta on the router"),
    (
        "versions",
        "docker pull nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31",
    ),
    ("versions", "git tag v1.0.0 -m 'first release' && git push origin v1.0.0"),
    ("versions", "the commit 9fceb02d0ae598e95dc970b74767f19372d61af8 broke the tests"),
    ("versions", "MD5 d41d8cd98f00b204e9800998ecf8427e matches the download"),
    ("versions", "Windows build 22631.3296, KB5035853 installed"),
    # phone numbers
    ("phones", "+44 20 7946 0958"),
    ("phones", "(415) 555-0199 ext. 204"),
    ("phones", "Mobile: 0912 345 678, landline +351 21 123 4567"),
    ("phones", "Praxis Dr. Weber: +49 30 901820, Fax -29"),
    ("phones", "Call 1-800-555-0100 and enter option 4, then 2"),
    # dates and times
    ("dates", "2026-03-01T10:45:00+01:00"),
    ("dates", "from 03/04/2026 to 17/04/2026"),
    ("dates", "12 de março de 2026 às 14h30"),
    ("dates", "Sprint 2026-W14, standup 09:15-09:30"),
    ("dates", "Born 1985-07-14, married 2012-09-22"),
    # poems
    (
        "poems",
        "The river runs beneath the bridge,\nthe autumn wind is cold,\na lonely bird upon the "
        "ridge\nsings songs of silver and of gold.",
    ),
    ("poems", "old pond\na frog leaps in\nwater's sound"),
    (
        "poems",
        "Roses are red,\nviolets are blue,\nsugar is sweet,\nand so are you.",
    ),
    (
        "poems",
        "ocean wave\nsummer sun\nwinter moon\nforest path\nmorning dew\nevening glow\nsilent "
        "night\nbright star\ngentle rain\nsoft wind\nquiet river\nopen sky",
    ),
    (
        "poems",
        "I wandered lonely as a cloud\nThat floats on high o'er vales and hills,\nWhen all at "
        "once I saw a crowd,\nA host, of golden daffodils",
    ),
    # public keys, addresses and hashes (public, not secrets)
    (
        "public",
        "my public key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l"
        "9GKJl ana@laptop",
    ),
    (
        "public",
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\nmQINBF0Ld6gBEAC7yf3\n-----END PGP PUBLIC KEY BLOCK-"
        "----",
    ),
    (
        "public",
        "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa\n"
        "-----END CERTIFICATE-----",
    ),
    ("public", "send the ETH to 0x742d35Cc6634C0532925a3b844Bc454e4438f44e"),
    (
        "public",
        "tx hash 0xa4c123b1612dd272d1371c17149d439536b3216fdaeeb975729fae923d5a4fd1 confirmed",
    ),
    (
        "public",
        "BTC address bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq, or 1A1zP1eP5QGefi2DMPTfTL5SLmv7Di"
        "vfNa",
    ),
    (
        "public",
        "watch-only xpub661MyMwAqRbcFcqaPKXkn43pC8gnF9vyPhcaNmEJzxXVZEeT1cqmFicExKcUVYi5bZUoc4jhHn"
        "vW"
        "8fKTCYwnmWd22pwEVxrCp4FQhYNgxba",
    ),
    (
        "public",
        "sha256sum: 2aabfe228f219e9cb0eb53f16947ccf25ec84d8dbc74254770f58904dba41ecc  backup.tar",
    ),
    ("public", "The UUID is 550e8400-e29b-41d4-a716-446655440000"),
    ("public", "MAC 00:1A:2B:3C:4D:5E, IPv6 2001:db8:85a3::8a2e:370:7334"),
    ("public", "Discord invite: https://discord.gg/k7Qp2Xz"),
    ("public", "https://kitstore.blob.core.windows.net/backups/2026-03-01.tar.gz"),
    ("public", "https://example.com/news?utm_source=newsletter&utm_medium=email&sig=spring-2026"),
    ("public", "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s"),
    ("public", "https://maps.google.com/?q=38.7223,-9.1393&z=15"),
    # codes that are not secrets
    ("codes", "The meeting ID is 845 2291 0934 and the room is 4.12"),
    ("codes", "Ticket reference MFRGGZDFMZTWQ2LK for the concert"),
    ("codes", "serial XK4P-22QM-98TZ on the box"),
    ("codes", "coupon SPRING-2026-FREESHIP expires Sunday"),
    ("codes", "Wi-Fi network: BlueSky-4471 (the password is on the router)"),
    ("codes", "The dress code is black tie; the zip code is 94103"),
    ("codes", "Error code 0x80070005 when updating"),
    ("codes", "Answer key: 1-B, 2-C, 3-A, 4-D, 5-B"),
    ("codes", "Chess: 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"),
    ("codes", "Chords: Am F C G, capo 3"),
    ("codes", "Gate B22, seat 14C, boarding group 4"),
    ("codes", "Locker 112, shelf 4, row 7"),
    ("codes", "Blood test: LDL 3.1 mmol/L, HbA1c 5.4%"),
    ("codes", "Score 21-17, 18-21, 21-15"),
    ("codes", "Netflix: ana@example.com / shared with Bruno"),
    ("codes", "Contact: ana@example.com / +351 912 345 678"),
    ("codes", "Login page: https://portal.example.com / help desk ext 4471"),
    ("codes", "The PIN must have 4 to 8 digits"),
    ("codes", "Enter the 6-digit code from your authenticator app"),
    ("codes", "Your verification code expires in 10 minutes"),
    ("codes", "TOTP codes are 6 digits and change every 30 seconds"),
    ("codes", "The key safe is by the door, Bruno knows the code"),
    ("codes", "The combination lock on my bike is broken"),
    ("codes", "The alarm code changed, Bruno has the new one"),
    ("codes", "The PUK is printed on the SIM card holder"),
    ("codes", "BitLocker asked for the recovery key after the BIOS update"),
    ("codes", "Apple says the recovery key has 28 characters"),
    ("codes", "My recovery phrase is stored offline in a fireproof safe"),
    ("codes", "Never share your private key or seed phrase with anyone"),
    ("codes", "The house key is under the third flower pot"),
    ("codes", "My password is the same as the one for the bank"),
    ("codes", "She typed the wrong PIN three times and the card was blocked"),
    # talk about passwords and codes in the detector's languages
    ("languages", "Ich habe das WLAN-Passwort auf einen Zettel am Kühlschrank geschrieben"),
    ("languages", "Le code de la porte a changé, demande à la gardienne"),
    ("languages", "La contraseña es demasiado larga para esa web"),
    ("languages", "A senha tem de ter pelo menos oito caracteres"),
    ("languages", "La password è scaduta, devo cambiarla"),
    ("languages", "Het wachtwoord is veranderd door de beheerder"),
    ("languages", "Hasło jest za krótkie"),
    ("languages", "Lösenordet är för kort"),
    ("languages", "Passordet er for langt"),
    ("languages", "Adgangskoden er udløbet"),
    ("languages", "Salasana on liian lyhyt"),
    ("languages", "Şifrem çok uzun"),
    ("languages", "Пароль слишком короткий"),
    ("languages", "Ο κωδικός είναι λάθος"),
    ("languages", "نسيت كلمة المرور مرة أخرى"),
    ("languages", "كلمة المرور هي نفسها"),
    ("languages", "שכחתי את הסיסמה שלי"),
    ("languages", "הסיסמה שלי ארוכה מדי"),
    ("languages", "मैं अपना पासवर्ड भूल गया"),
    ("languages", "मेरा पासवर्ड बहुत लंबा है"),
    ("languages", "パスワードを変更しました"),
    ("languages", "密码太短了"),
    ("languages", "비밀번호를 잊어버렸어요"),
    # code and configuration that mention passwords without holding one
    ("config", "password = os.environ['DB_PASSWORD']"),
    ("config", "Set PASSWORD_MIN_LENGTH to 12 in settings.py"),
    ("config", "api_key: ${WEATHER_API_KEY}"),
    ("config", "token = get_token(user_id)"),
    ("config", "The secret is stored in the vault under kv/kit/prod"),
    # written after the detector was tuned on everything above, measured before any fix
    ("held out", "The alarm is set for 6:45 tomorrow"),
    ("held out", "Bike lock broke, need a new one for 25 euros"),
    ("held out", "Suitcase weighs 23 kg, the limit is 23"),
    ("held out", "The gate opens at 08:00 and closes at 20:00"),
    ("held out", "Our house number is 42, the blue door"),
    ("held out", "wifi is down again since 14:00"),
    ("held out", "The code review for PR 4471 is done"),
    ("held out", "Password strength: 3/4, add a symbol"),
    ("held out", "Garage sale on Saturday 9-12, 14 Rua Nova"),
    ("held out", "My favourite numbers are 7, 14 and 2024"),
    ("held out", "Room 2580 is on the 25th floor"),
    ("held out", "PIN码在信封里"),
    ("held out", "the secret to good bread is time"),
    ("held out", "He used the key to open the safe at 10:30"),
    ("held out", "Token ring networks were popular in 1990"),
    ("held out", "Please sign here: ______ date: 01/02/2026"),
    ("held out", "Key takeaways: 1) sleep 2) water 3) walk"),
    ("held out", "Apartment 4B, buzzer 12"),
    ("held out", "Code 128 barcodes are used for shipping labels"),
    ("held out", "The lottery numbers were 4 8 15 16 23 42"),
    ("held out", "Access granted at 09:14 by badge 4471"),
    ("held out", "Our Wi-Fi is called HomeNet-5G"),
    ("held out", "combo meal #3 with a large coke"),
    ("held out", "Her pass expires 2026-12-31"),
    ("held out", "The PIN pad's 5 key sticks"),
    ("held out", "My bank's app logs me out after 5 minutes"),
    ("held out", "seed potatoes, onion sets, garlic bulbs"),
    ("held out", "She paid 4821 euros for the car repair"),
    ("held out", "The lock screen shows 3 missed calls"),
    ("held out", "the alarm code panel needs new batteries"),
)

ORDINARY: tuple[tuple[str, str], ...] = (*(("chat", t) for t in _CHAT), *_CLOSE)
