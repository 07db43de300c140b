"""Writes bench/data/secrets-second.json: the detector's second corpus.

Written from general knowledge of real secret formats and of everyday text, BEFORE reading
Kit's first corpus, its tests' secret lists or the detector's source (issue 30: a corpus the
detector was not fitted to). Every value is fake: random where a real key is random (with the
real shape, and a valid checksum where the format has one), from a fixed seed, so running this
again writes the same file. The committed JSON is the corpus; this script says how it was made.

    python bench/data/secrets_second_gen.py      # needs `mnemonic` (a Kit dependency)

Each item: {"id", "label": "secret" | "lookalike", "kind", "text", "secret": [parts]}. A secret
is withheld when none of its parts survives in the detector's output; a look-alike is kept when
the output is the text unchanged.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import struct
from collections.abc import Callable
from pathlib import Path

from mnemonic import Mnemonic

R = random.Random(20261130)
ALNUM = string.ascii_letters + string.digits
UPPER_ALNUM = string.ascii_uppercase + string.digits
LOWER_ALNUM = string.ascii_lowercase + string.digits
HEX = "0123456789abcdef"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

ITEMS: list[dict[str, object]] = []


def S(kind: str, text: str, *parts: str) -> None:
    """A secret: `parts` are the substrings that must not survive."""
    assert parts and all(p in text for p in parts), (kind, text, parts)
    ITEMS.append({"label": "secret", "kind": kind, "text": text, "secret": list(parts)})


def L(kind: str, text: str) -> None:
    """A look-alike: must come out unchanged."""
    ITEMS.append({"label": "lookalike", "kind": kind, "text": text, "secret": []})


def pick(alphabet: str, n: int) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def hexs(n: int) -> str:
    return pick(HEX, n)


def b64(n: int) -> str:
    return pick(ALNUM + "+/", n)


def b64url(n: int) -> str:
    return pick(ALNUM + "-_", n)


def digits(n: int) -> str:
    return pick(string.digits, n)


def rbytes(n: int) -> bytes:
    return bytes(R.getrandbits(8) for _ in range(n))


def uuid4() -> str:
    h = hexs(32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{R.choice('89ab')}{h[17:20]}-{h[20:]}"


def b58encode(data: bytes) -> str:
    n = int.from_bytes(data, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    pad = len(data) - len(data.lstrip(b"\0"))
    return "1" * pad + out


def b58check(payload: bytes) -> str:
    check = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    return b58encode(payload + check)


_BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _polymod(values: list[int]) -> int:
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if (top >> i) & 1 else 0
    return chk


def _bits5(data: bytes) -> list[int]:
    acc = bits = 0
    out = []
    for b in data:
        acc = (acc << 8) | b
        bits += 8
        while bits >= 5:
            bits -= 5
            out.append((acc >> bits) & 31)
    if bits:
        out.append((acc << (5 - bits)) & 31)
    return out


def bech32(hrp: str, data: bytes, witver: int | None = None) -> str:
    values = ([witver] if witver is not None else []) + _bits5(data)
    expanded = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    mod = _polymod(expanded + values + [0] * 6) ^ 1
    check = [(mod >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(_BECH[v] for v in values + check)


def wrap64(body: str) -> str:
    return "\n".join(body[i : i + 64] for i in range(0, len(body), 64))


def pem(label: str, der: bytes) -> tuple[str, list[str]]:
    body = base64.b64encode(der).decode()
    lines = wrap64(body).split("\n")
    text = f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"
    return text, [ln for ln in lines if len(ln) >= 16]


def ssh_string(b: bytes) -> bytes:
    return struct.pack(">I", len(b)) + b


def openssh_ed25519() -> bytes:
    pub = rbytes(32)
    blob = ssh_string(b"ssh-ed25519") + ssh_string(pub)
    check = rbytes(4)
    private = (
        check + check + blob + ssh_string(rbytes(32) + pub) + ssh_string(b"kit@laptop") + b"\1\2\3"
    )
    return (
        b"openssh-key-v1\0"
        + ssh_string(b"none")
        + ssh_string(b"none")
        + ssh_string(b"")
        + struct.pack(">I", 1)
        + ssh_string(blob)
        + ssh_string(private)
    )


WORDS = (
    "maple river tiger sunset violet falcon coffee pepper orange harbor cobalt winter meadow "
    "rocket lemon saffron thunder willow pebble lantern marble cactus dragon velvet comet "
    "juniper walnut biscuit nebula otter"
).split()
SYMBOLS = "!@#$%&*?-_+="


def human_password() -> str:
    """Passwords as people make them: words, years, a symbol, a capital, some leet."""
    w1, w2 = R.sample(WORDS, 2)
    shape = R.randrange(8)
    if shape == 0:
        return w1.capitalize() + str(R.randint(1960, 2024)) + R.choice(SYMBOLS)
    if shape == 1:
        return w1 + w2 + digits(2)
    if shape == 2:
        leet = w1.replace("a", "4").replace("e", "3").replace("o", "0").replace("i", "1")
        return leet.capitalize() + R.choice(SYMBOLS) + digits(R.randint(1, 3))
    if shape == 3:
        return pick(ALNUM + SYMBOLS, R.randint(10, 18))
    if shape == 4:
        return w1.capitalize() + R.choice(SYMBOLS) + w2.capitalize() + digits(1)
    if shape == 5:
        return pick(ALNUM, R.randint(8, 14))
    if shape == 6:
        return w1 + "_" + w2 + R.choice(SYMBOLS)
    return w1.upper()[:3] + digits(4) + w2[:4]


def strong_password() -> str:
    return pick(ALNUM + SYMBOLS, R.randint(14, 22))


USERS = ["alice", "bob.k", "mwilson", "admin", "sam_deploy", "jdoe", "root", "nina.r", "ops"]


def user() -> str:
    return R.choice(USERS) + (digits(2) if R.random() < 0.3 else "")


def email() -> str:
    return f"{R.choice(['sam', 'lena', 'p.ortiz', 'kim', 'dad'])}{digits(2)}@example.com"


# ---------------------------------------------------------------------------- secrets


def vendor_tokens() -> None:
    kinds: list[tuple[str, str, Callable[[], str]]] = [
        ("GitHub", "GITHUB_TOKEN", lambda: "ghp_" + pick(ALNUM, 36)),
        ("GitHub OAuth", "GH_OAUTH", lambda: "gho_" + pick(ALNUM, 36)),
        ("GitHub app", "GH_APP_TOKEN", lambda: "ghs_" + pick(ALNUM, 36)),
        ("GitHub user-to-server", "GH_U2S", lambda: "ghu_" + pick(ALNUM, 36)),
        ("GitHub refresh", "GH_REFRESH", lambda: "ghr_" + pick(ALNUM, 36)),
        (
            "GitHub fine-grained",
            "GH_PAT",
            lambda: "github_pat_" + pick(UPPER_ALNUM, 22) + "_" + pick(ALNUM, 59),
        ),
        ("GitLab", "GITLAB_TOKEN", lambda: "glpat-" + b64url(20)),
        ("GitLab runner", "RUNNER_TOKEN", lambda: "glrt-" + b64url(20)),
        (
            "Slack bot",
            "SLACK_BOT_TOKEN",
            lambda: f"xoxb-{digits(11)}-{digits(13)}-{pick(ALNUM, 24)}",
        ),
        (
            "Slack user",
            "SLACK_USER_TOKEN",
            lambda: f"xoxp-{digits(11)}-{digits(11)}-{digits(13)}-{hexs(32)}",
        ),
        (
            "Slack app",
            "SLACK_APP_TOKEN",
            lambda: f"xapp-1-A{pick(UPPER_ALNUM, 10)}-{digits(13)}-{hexs(64)}",
        ),
        (
            "Slack webhook",
            "SLACK_WEBHOOK",
            lambda: (
                "https://hooks.slack.com/services/T"
                + pick(UPPER_ALNUM, 8)
                + "/B"
                + pick(UPPER_ALNUM, 10)
                + "/"
                + pick(ALNUM, 24)
            ),
        ),
        (
            "Discord webhook",
            "DISCORD_WEBHOOK",
            lambda: f"https://discord.com/api/webhooks/{digits(18)}/{b64url(68)}",
        ),
        (
            "Discord bot",
            "DISCORD_TOKEN",
            lambda: R.choice("MN") + pick(ALNUM, 25) + "." + b64url(6) + "." + b64url(38),
        ),
        ("Stripe", "STRIPE_SECRET_KEY", lambda: "sk_live_" + pick(ALNUM, 99)),
        ("Stripe restricted", "STRIPE_RK", lambda: "rk_live_" + pick(ALNUM, 24)),
        ("Stripe webhook", "STRIPE_WEBHOOK_SECRET", lambda: "whsec_" + pick(ALNUM, 32)),
        ("SendGrid", "SENDGRID_API_KEY", lambda: "SG." + b64url(22) + "." + b64url(43)),
        ("Mailgun", "MAILGUN_API_KEY", lambda: "key-" + hexs(32)),
        ("Mailchimp", "MAILCHIMP_KEY", lambda: hexs(32) + "-us" + str(R.randint(1, 21))),
        ("npm", "NPM_TOKEN", lambda: "npm_" + pick(ALNUM, 36)),
        ("PyPI", "TWINE_PASSWORD", lambda: "pypi-AgEIcHlwaS5vcmc" + b64url(150)),
        ("Docker Hub", "DOCKER_PAT", lambda: "dckr_pat_" + b64url(27)),
        (
            "OpenAI",
            "OPENAI_API_KEY",
            lambda: "sk-proj-" + b64url(74) + "T3BlbkFJ" + b64url(74),
        ),
        (
            "OpenAI legacy",
            "OPENAI_KEY",
            lambda: "sk-" + pick(ALNUM, 20) + "T3BlbkFJ" + pick(ALNUM, 20),
        ),
        ("Anthropic", "ANTHROPIC_API_KEY", lambda: "sk-ant-api03-" + b64url(93) + "AA"),
        ("Hugging Face", "HF_TOKEN", lambda: "hf_" + pick(string.ascii_letters, 34)),
        (
            "Telegram bot",
            "TELEGRAM_BOT_TOKEN",
            lambda: f"{R.randint(100000000, 7999999999)}:AA{b64url(33)}",
        ),
        ("Shopify", "SHOPIFY_ACCESS_TOKEN", lambda: "shpat_" + hexs(32)),
        ("Shopify shared secret", "SHOPIFY_SECRET", lambda: "shpss_" + hexs(32)),
        ("DigitalOcean", "DIGITALOCEAN_TOKEN", lambda: "dop_v1_" + hexs(64)),
        (
            "Atlassian",
            "JIRA_API_TOKEN",
            lambda: "ATATT3xFfGF0" + b64url(170) + "=" + pick(UPPER_ALNUM, 8),
        ),
        ("Linear", "LINEAR_API_KEY", lambda: "lin_api_" + pick(ALNUM, 40)),
        ("Notion", "NOTION_TOKEN", lambda: "secret_" + pick(ALNUM, 43)),
        ("Notion new", "NOTION_KEY", lambda: "ntn_" + digits(11) + pick(ALNUM, 35)),
        ("Airtable", "AIRTABLE_PAT", lambda: "pat" + pick(ALNUM, 14) + "." + hexs(64)),
        ("Dropbox", "DROPBOX_TOKEN", lambda: "sl." + b64url(138)),
        ("Square", "SQUARE_ACCESS_TOKEN", lambda: "EAAA" + b64url(60)),
        ("Google API", "GOOGLE_API_KEY", lambda: "AIza" + b64url(35)),
        ("Google OAuth client secret", "GOOGLE_CLIENT_SECRET", lambda: "GOCSPX-" + b64url(28)),
        ("Google OAuth access", "GOOGLE_ACCESS_TOKEN", lambda: "ya29." + b64url(150)),
        ("Google refresh", "GOOGLE_REFRESH_TOKEN", lambda: "1//0" + b64url(99)),
        ("Postman", "POSTMAN_API_KEY", lambda: f"PMAK-{hexs(24)}-{hexs(34)}"),
        ("Grafana", "GRAFANA_TOKEN", lambda: "glsa_" + pick(ALNUM, 32) + "_" + hexs(8)),
        ("New Relic", "NEW_RELIC_API_KEY", lambda: "NRAK-" + pick(UPPER_ALNUM, 27)),
        ("Sentry", "SENTRY_AUTH_TOKEN", lambda: "sntryu_" + hexs(64)),
        ("Doppler", "DOPPLER_TOKEN", lambda: "dp.pt." + pick(ALNUM, 43)),
        ("Vault", "VAULT_TOKEN", lambda: "hvs." + b64url(90)),
        (
            "Terraform Cloud",
            "TFE_TOKEN",
            lambda: pick(ALNUM, 14) + ".atlasv1." + pick(ALNUM, 67),
        ),
        ("Pulumi", "PULUMI_ACCESS_TOKEN", lambda: "pul-" + hexs(40)),
        ("RubyGems", "GEM_HOST_API_KEY", lambda: "rubygems_" + hexs(48)),
        ("NuGet", "NUGET_API_KEY", lambda: "oy2" + pick(LOWER_ALNUM, 43)),
        ("Facebook", "FB_ACCESS_TOKEN", lambda: "EAAG" + pick(ALNUM, 180)),
        (
            "Twitter bearer",
            "TWITTER_BEARER_TOKEN",
            lambda: "AAAAAAAAAAAAAAAAAAAAA" + pick(ALNUM, 30) + "%3D" + pick(ALNUM, 50),
        ),
        ("Shippo", "SHIPPO_TOKEN", lambda: "shippo_live_" + hexs(40)),
        (
            "Mapbox secret",
            "MAPBOX_SECRET",
            lambda: "sk.eyJ1IjoiZXhhbXBsZSIsImEiOiJ" + b64url(20) + "In0." + b64url(22),
        ),
        ("Figma", "FIGMA_TOKEN", lambda: "figd_" + b64url(40)),
        ("Contentful", "CONTENTFUL_TOKEN", lambda: "CFPAT-" + b64url(43)),
        ("Databricks", "DATABRICKS_TOKEN", lambda: "dapi" + hexs(32)),
        ("Supabase", "SUPABASE_ACCESS_TOKEN", lambda: "sbp_" + hexs(40)),
        ("PlanetScale", "PLANETSCALE_TOKEN", lambda: "pscale_tkn_" + b64url(43)),
        ("Render", "RENDER_API_KEY", lambda: "rnd_" + pick(ALNUM, 32)),
        ("Sourcegraph", "SRC_ACCESS_TOKEN", lambda: "sgp_" + hexs(40)),
        (
            "Dynatrace",
            "DT_API_TOKEN",
            lambda: "dt0c01." + pick(UPPER_ALNUM, 24) + "." + pick(UPPER_ALNUM, 64),
        ),
        ("Adafruit IO", "AIO_KEY", lambda: "aio_" + pick(ALNUM, 28)),
        ("Groq", "GROQ_API_KEY", lambda: "gsk_" + pick(ALNUM, 52)),
        ("Replicate", "REPLICATE_API_TOKEN", lambda: "r8_" + pick(ALNUM, 37)),
        ("Perplexity", "PPLX_API_KEY", lambda: "pplx-" + hexs(48)),
        ("xAI", "XAI_API_KEY", lambda: "xai-" + pick(ALNUM, 80)),
        ("DeepSeek", "DEEPSEEK_API_KEY", lambda: "sk-" + hexs(32)),
        ("Netlify", "NETLIFY_AUTH_TOKEN", lambda: "nfp_" + pick(ALNUM, 40)),
        ("Tailscale", "TS_AUTHKEY", lambda: f"tskey-auth-k{pick(ALNUM, 16)}-{pick(ALNUM, 32)}"),
        ("Langsmith", "LANGSMITH_API_KEY", lambda: f"lsv2_pt_{hexs(32)}_{hexs(10)}"),
        ("ElevenLabs", "ELEVENLABS_API_KEY", lambda: "sk_" + hexs(48)),
        ("Pinecone", "PINECONE_API_KEY", lambda: "pcsk_" + pick(ALNUM, 5) + "_" + pick(ALNUM, 60)),
        ("Twitch", "TWITCH_OAUTH", lambda: "oauth:" + pick(LOWER_ALNUM, 30)),
        (
            "Braintree",
            "BRAINTREE_TOKEN",
            lambda: f"access_token$production${pick(LOWER_ALNUM, 16)}${hexs(32)}",
        ),
        (
            "Firebase Cloud Messaging",
            "FCM_SERVER_KEY",
            lambda: "AAAA" + b64url(7) + ":APA91b" + b64url(134),
        ),
        ("Yandex", "YANDEX_OAUTH", lambda: "y0_AgAAAAA" + b64url(50)),
        ("Bitbucket app password", "BITBUCKET_APP_PASSWORD", lambda: "ATBB" + pick(ALNUM, 32)),
        ("age", "AGE_KEY", lambda: bech32("age-secret-key-", rbytes(32)).upper()),
        ("Typeform", "TYPEFORM_TOKEN", lambda: "tfp_" + b64url(44) + "_" + b64url(14)),
        ("Frame.io", "FRAMEIO_TOKEN", lambda: "fio-u-" + b64url(64)),
        ("Prefect", "PREFECT_API_KEY", lambda: "pnu_" + pick(ALNUM, 36)),
        ("Clojars", "CLOJARS_TOKEN", lambda: "CLOJARS_" + hexs(60)),
        ("Readme", "README_API_KEY", lambda: "rdme_" + pick(LOWER_ALNUM, 70)),
    ]
    contexts = [
        "here's the {name} token: {v}",
        "{env}={v}",
        'export {env}="{v}"',
        "rotated the {name} key this morning, the new one is {v}",
        'curl -H "Authorization: Bearer {v}" https://api.example.com/v1/me',
        '{{"{envl}": "{v}"}}',
        "Can you keep my {name} API key somewhere? {v}",
        "{v}",
        'client = Client(api_key="{v}")',
        "token: {v}",
        "I pasted {v} into the CI settings for {name}, hope that was right",
        "{name}\n{v}",
        "  {envl}: {v}",
        "the old one was revoked. use {v} from now on",
    ]
    for i, (name, env, gen) in enumerate(kinds):
        v = gen()
        ctx = contexts[i % len(contexts)]
        S("vendor_token", ctx.format(name=name, env=env, envl=env.lower(), v=v), v)
    # A second sighting of the commonest ones, in prose.
    for name, gen in [
        ("GitHub", lambda: "ghp_" + pick(ALNUM, 36)),
        ("OpenAI", lambda: "sk-proj-" + b64url(74) + "T3BlbkFJ" + b64url(74)),
        ("Slack", lambda: f"xoxb-{digits(12)}-{digits(13)}-{pick(ALNUM, 24)}"),
        ("Stripe", lambda: "sk_live_" + pick(ALNUM, 24)),
        ("Telegram", lambda: f"{R.randint(100000000, 7999999999)}:AA{b64url(33)}"),
        ("Anthropic", lambda: "sk-ant-api03-" + b64url(93) + "AA"),
        ("GitLab", lambda: "glpat-" + b64url(20)),
        ("Docker", lambda: "dckr_pat_" + b64url(27)),
    ]:
        v = gen()
        S(
            "vendor_token",
            f"ok so for the {name} integration I'm using {v} — don't lose it, it was a pain "
            "to set up",
            v,
        )


def cloud_keys() -> None:
    for _ in range(2):
        kid, sec = "AKIA" + pick(UPPER_ALNUM, 16), b64(40)
        S(
            "cloud_key",
            f"[default]\naws_access_key_id = {kid}\naws_secret_access_key = {sec}\n"
            "region = eu-west-1",
            kid,
            sec,
        )
    kid, sec = "AKIA" + pick(UPPER_ALNUM, 16), b64(40)
    S("cloud_key", f"aws keys for the backup bucket: access key {kid}, secret {sec}", kid, sec)
    kid, sec = "AKIA" + pick(UPPER_ALNUM, 16), b64(40)
    S(
        "cloud_key",
        f"export AWS_ACCESS_KEY_ID={kid}\nexport AWS_SECRET_ACCESS_KEY={sec}",
        kid,
        sec,
    )
    sec = b64(40)
    S("cloud_key", f"the AWS secret access key is {sec} (the id is in 1Password)", sec)
    kid = "ASIA" + pick(UPPER_ALNUM, 16)
    tok = "IQoJb3JpZ2luX2VjE" + b64(300)
    S(
        "cloud_key",
        f"AWS_ACCESS_KEY_ID={kid}\nAWS_SECRET_ACCESS_KEY={b64(40)}\nAWS_SESSION_TOKEN={tok}",
        kid,
        tok,
    )
    der = bytes.fromhex(
        "308204bd020100300d06092a864886f70d0101010500048204a7308204a302010002820101"
    )
    key_text, key_lines = pem("PRIVATE KEY", der + rbytes(1180))
    pkid = hexs(40)
    sa = json.dumps(
        {
            "type": "service_account",
            "project_id": "family-photos-3121",
            "private_key_id": pkid,
            "private_key": key_text + "\n",
            "client_email": "uploader@family-photos-3121.iam.gserviceaccount.com",
            "client_id": digits(21),
        },
        indent=2,
    )
    S("cloud_key", sa, *(json.dumps(ln)[1:-1] for ln in key_lines[:3]))
    acc = b64(86) + "=="
    S(
        "cloud_key",
        "DefaultEndpointsProtocol=https;AccountName=kitbackups;AccountKey="
        + acc
        + ";EndpointSuffix=core.windows.net",
        acc,
    )
    sig = b64(43).replace("+", "%2B").replace("/", "%2F") + "%3D"
    S(
        "cloud_key",
        "https://kitbackups.blob.core.windows.net/photos?sv=2022-11-02&ss=b&srt=sco&sp=rwdlac"
        "&se=2026-12-31T23:59:59Z&st=2026-01-01T00:00:00Z&spr=https&sig=" + sig,
        sig,
    )
    cs = pick(ALNUM, 3) + "8Q~" + pick(ALNUM + "_~.-", 34)
    S("cloud_key", f"Azure app registration client secret: {cs}", cs)
    ak, sk = "LTAI" + pick(ALNUM, 20), pick(ALNUM, 30)
    S("cloud_key", f"Alibaba Cloud AccessKey ID {ak} / AccessKey Secret {sk}", ak, sk)
    ibm = b64url(44)
    S("cloud_key", f"ibmcloud login --apikey {ibm} -r eu-de", ibm)
    sk = b64(43)
    S("cloud_key", f"SPACES_KEY=DO00{pick(UPPER_ALNUM, 16)}\nSPACES_SECRET={sk}", sk)
    rid, rsec = hexs(32), hexs(64)
    S(
        "cloud_key",
        f"Cloudflare R2: access key id {rid}, secret access key {rsec}",
        rsec,
    )
    bk = "K005" + b64(27)
    S("cloud_key", f"B2 keyID 005{hexs(22)}0000000001 applicationKey {bk}", bk)
    ht = pick(ALNUM, 64)
    S("cloud_key", f"hcloud token for the Hetzner project: {ht}", ht)
    lt = hexs(64)
    S("cloud_key", f"LINODE_TOKEN={lt}", lt)
    gk = uuid4()
    S("cloud_key", f"SCW_ACCESS_KEY=SCW{pick(UPPER_ALNUM, 17)}\nSCW_SECRET_KEY={gk}", gk)
    hk = uuid4()
    S("cloud_key", f"heroku api key: {hk}", hk)


def private_keys() -> None:
    rsa1 = bytes.fromhex("308204a30201000282010100") + rbytes(1180)
    text, lines = pem("RSA PRIVATE KEY", rsa1)
    S("private_key_pem", "here's the deploy key for the old server:\n" + text, *lines)
    ec = (
        bytes.fromhex("30770201010420")
        + rbytes(32)
        + bytes.fromhex("a00a06082a8648ce3d030107a144034200")
        + b"\x04"
        + rbytes(64)
    )
    text, lines = pem("EC PRIVATE KEY", ec)
    S("private_key_pem", text, *lines)
    p8 = (
        bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420")
        + rbytes(32)
        + bytes.fromhex("a144034200")
        + b"\x04"
        + rbytes(64)
    )
    text, lines = pem("PRIVATE KEY", p8)
    S("private_key_pem", "tls key for home.example.net\n\n" + text + "\n", *lines)
    text, lines = pem("OPENSSH PRIVATE KEY", openssh_ed25519())
    S("private_key_pem", "cat ~/.ssh/id_ed25519\n" + text, *lines)
    text, lines = pem("ENCRYPTED PRIVATE KEY", bytes.fromhex("308205") + rbytes(1300))
    S("private_key_pem", text, *lines)
    text, lines = pem("DSA PRIVATE KEY", bytes.fromhex("308201bb020100") + rbytes(430))
    S("private_key_pem", text, *lines)
    body = base64.b64encode(b"\x95\x03\xc6" + rbytes(900)).decode()
    plines = wrap64(body).split("\n")
    S(
        "private_key_pem",
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"
        + "\n".join(plines)
        + "\n="
        + b64(4)
        + "\n-----END PGP PRIVATE KEY BLOCK-----",
        *[ln for ln in plines if len(ln) >= 16],
    )
    priv = b64(44)
    pub_lines = wrap64(base64.b64encode(b"\0\0\0\x0bssh-ed25519\0\0\0 " + rbytes(32)).decode())
    mac = hexs(64)
    S(
        "private_key_pem",
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-20260114\n"
        f"Public-Lines: 2\n{pub_lines}\nPrivate-Lines: 1\n{priv}\nPrivate-MAC: {mac}",
        priv,
    )
    # Flattened by a chat app onto one line.
    text, lines = pem("OPENSSH PRIVATE KEY", openssh_ed25519())
    flat = text.replace("\n", " ")
    S("private_key_pem", "my key (sorry, the formatting got eaten): " + flat, *lines)
    # Pasted halfway: no END line.
    text, lines = pem("RSA PRIVATE KEY", bytes.fromhex("308204a40201000282010100") + rbytes(700))
    cut = text.split("\n")[:8]
    S("private_key_pem", "\n".join(cut) + "\n... the rest is on the usb stick", *cut[1:])


def key_material() -> None:
    for fmt in range(4):
        pk, pub = b64(43) + "=", b64(43) + "="
        if fmt == 0:
            text = (
                f"[Interface]\nPrivateKey = {pk}\nAddress = 10.8.0.2/32\nDNS = 1.1.1.1\n\n"
                f"[Peer]\nPublicKey = {pub}\nEndpoint = vpn.example.net:51820\n"
                "AllowedIPs = 0.0.0.0/0"
            )
        elif fmt == 1:
            text = f"PrivateKey={pk}"
        elif fmt == 2:
            text = f"my wireguard private key on the phone is {pk}"
        else:
            text = f"wg set wg0 private-key <(echo {pk})"
        S("key_material", text, pk)
    nsec = bech32("nsec", rbytes(32))
    S("key_material", f"nostr login nsec: {nsec}", nsec)
    S("key_material", nsec, nsec)
    sk = bech32("ed25519_sk", rbytes(32))
    S("key_material", f"cardano payment signing key {sk}", sk)
    h = hexs(64)
    S("key_material", f"ed25519 private key (hex): {h}", h)
    h = hexs(64)
    S("key_material", f"ETH private key for the test wallet: 0x{h}", h)
    h = hexs(64)
    S("key_material", f"metamask export -> {h}", h)
    h = hexs(64)
    S("key_material", f"PRIVATE_KEY=0x{h}", h)
    arr = "[" + ",".join(str(R.randrange(256)) for _ in range(64)) + "]"
    S("key_material", f"contents of ~/.config/solana/id.json: {arr}", arr[1:40])
    mk = " ".join(pick(B58, 4) for _ in range(12))
    S("key_material", f"Element security key: {mk}", mk)
    h = hexs(64)
    S("key_material", f"monero private spend key {h}", h)
    mac = "0201036c6e6402f801030a10" + hexs(400)
    S("key_material", f"lnd admin macaroon (hex): {mac}", mac)
    h = hexs(64)
    S("key_material", f"AES-256 encryption key for the backups: {h}", h)
    k = b64(43) + "="
    S("key_material", f"the secret key for signing the update feed is {k}", k)


def wallet_keys() -> None:
    m_en = Mnemonic("english")
    versions = [
        ("xprv", "0488ade4"),
        ("xprv", "0488ade4"),
        ("xprv", "0488ade4"),
        ("tprv", "04358394"),
        ("tprv", "04358394"),
        ("yprv", "049d7878"),
        ("zprv", "04b2430d"),
    ]
    ctx = [
        "electrum master private key: {k}",
        "{k}",
        "BIP32 root key {k}",
        "testnet wallet xpriv, for the regtest script: {k}",
        "tprv for the signet faucet = {k}",
        "here's my extended private key {k} please store it",
        "zprv backup (native segwit): {k}",
    ]
    for (_, ver), c in zip(versions, ctx, strict=True):
        payload = (
            bytes.fromhex(ver) + rbytes(1) + rbytes(4) + rbytes(4) + rbytes(32) + b"\0" + rbytes(32)
        )
        k = b58check(payload)
        S("wallet_key", c.format(k=k), k)
    for prefix, comp, c in [
        (b"\x80", False, "paper wallet WIF: {k}"),
        (b"\x80", False, "{k}"),
        (b"\x80", True, "bitcoin private key {k}"),
        (b"\x80", True, "importprivkey {k} savings false"),
        (b"\x80", True, "sweep this one please: {k}"),
        (b"\xef", True, "testnet WIF {k}"),
    ]:
        k = b58check(prefix + rbytes(32) + (b"\x01" if comp else b""))
        S("wallet_key", c.format(k=k), k)
    for c in [
        "phantom private key: {k}",
        "{k}",
        "SOLANA_PRIVATE_KEY={k}",
        "bot wallet key (base58) {k}",
    ]:
        k = b58encode(rbytes(64))
        S("wallet_key", c.format(k=k), k)
    seeds = [
        (16, "my seed phrase: {p}"),
        (16, "recovery phrase for the ledger — {p}"),
        (16, "{p}"),
        (16, "12 words for the hot wallet\n{p}"),
        (32, "mnemonic: {p}"),
        (32, "24-word backup: {p}"),
        (32, "write these down somewhere safe: {p}"),
        (24, "trezor recovery seed (18 words) {p}"),
    ]
    for n, c in seeds:
        words = m_en.to_mnemonic(rbytes(n)).split()
        half = len(words) // 2
        p = " ".join(words)
        S(
            "seed_phrase",
            c.format(p=p),
            " ".join(words[:half]),
            " ".join(words[half:]),
        )
    words = m_en.to_mnemonic(rbytes(16)).split()
    numbered = "\n".join(f"{i}. {w}" for i, w in enumerate(words, 1))
    S("seed_phrase", "seed words:\n" + numbered, *(f"{i}. {w}" for i, w in enumerate(words, 1)))
    words = m_en.to_mnemonic(rbytes(16)).split()
    S("seed_phrase", "wallet words " + ", ".join(words), ", ".join(words[:6]), ", ".join(words[6:]))
    for lang, n, c in [
        ("spanish", 16, "frase semilla de la billetera: {p}"),
        ("french", 16, "phrase de récupération : {p}"),
        ("italian", 16, "{p}"),
    ]:
        words = Mnemonic(lang).to_mnemonic(rbytes(n)).split()
        S(
            "seed_phrase",
            c.format(p=" ".join(words)),
            " ".join(words[:6]),
            " ".join(words[6:]),
        )


def jwt(alg: str = "HS256", sig_len: int = 43) -> str:
    def enc(obj: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()

    head = enc({"alg": alg, "typ": "JWT"})
    body = enc(
        {
            "sub": digits(8),
            "name": R.choice(["Sam", "Lena Ortiz", "kit-bot"]),
            "iat": 1767225600 + R.randrange(10**7),
            "exp": 1799999999,
            "role": R.choice(["admin", "service_role", "user"]),
        }
    )
    return f"{head}.{body}.{b64url(sig_len)}"


def jwts() -> None:
    for c in [
        "Authorization: Bearer {t}",
        "cookie: session={t}; Path=/; HttpOnly",
        "here's the id_token from the login response {t}",
        "{t}",
        "https://app.example.com/callback#access_token={t}&token_type=bearer",
        '{{"token": "{t}", "expires_in": 3600}}',
        "SUPABASE_SERVICE_ROLE_KEY={t}",
        "the API wants this JWT in the header: {t}",
    ]:
        t = jwt()
        S("jwt", c.format(t=t), t.rsplit(".", 1)[1])
    t = jwt("RS256", 342)
    S("jwt", f"access token (RS256): {t}", t.rsplit(".", 1)[1])
    t = jwt("ES256", 86)
    S("jwt", f"curl -H 'Authorization: Bearer {t}' https://api.example.com", t.rsplit(".", 1)[1])


def connection_strings() -> None:
    forms = [
        "postgres://{u}:{p}@db.example.com:5432/app",
        "DATABASE_URL=postgresql://{u}:{p}@ep-cool-river-123456.eu-central-1.aws.neon.tech/neondb"
        "?sslmode=require",
        "mysql://{u}:{p}@127.0.0.1:3306/shop",
        "mongodb+srv://{u}:{p}@cluster0.ab1cd.mongodb.net/?retryWrites=true&w=majority",
        "redis://:{p}@redis.internal:6379/0",
        "REDIS_URL=rediss://default:{p}@eu1-sharp-fox-31337.upstash.io:6379",
        "amqp://{u}:{p}@rabbit.local:5672/%2F",
        "ftp://{u}:{p}@ftp.example.org/pub/photos",
        "git remote set-url origin https://{u}:{p}@git.example.com/family/recipes.git",
        "smtp://{u}:{p}@smtp.mailgun.org:587",
        "Server=tcp:sql.example.net,1433;Database=crm;User ID={u};Password={p};Encrypt=True;",
        "jdbc:postgresql://db:5432/app?user={u}&password={p}&ssl=true",
        "host=db.local port=5432 dbname=app user={u} password={p} sslmode=require",
        "Data Source=NAS\\SQLEXPRESS;Initial Catalog=Budget;User Id={u};Pwd={p};",
        "engine = create_engine('mssql+pyodbc://{u}:{p}@budget-dsn')",
        "socks5://{u}:{p}@proxy.example.net:1080",
        "export https_proxy=http://{u}:{p}@proxy.corp.example:3128",
        "the db is at postgresql://{u}:{p}@10.0.0.12/ledger if you need to look",
        "mqtt://{u}:{p}@homeassistant.local:1883",
        "sftp://{u}:{p}@files.example.net:22/backups",
    ]
    for f in forms:
        p = human_password() if R.random() < 0.5 else strong_password()
        p = p.replace("@", "!").replace(";", "!").replace("/", "!").replace(":", "!")
        p = p.replace("&", "!").replace("'", "!").replace("#", "!").replace("?", "!")
        S("connection_string", f.format(u=user(), p=p), p)


def cli_passwords() -> None:
    forms = [
        "mysql -u root -p{p} shop",
        "mysql -h db.internal -u app --password={p}",
        "sshpass -p '{p}' ssh deploy@10.0.3.7",
        "sshpass -p {p} scp backup.tar admin@nas:/volume1/backups",
        "PGPASSWORD={p} psql -h localhost -U postgres",
        "curl -u {u}:{p} https://nas.local:5001/api/status",
        "docker login -u {u} -p {p} registry.example.com",
        "redis-cli -h cache -a {p} ping",
        "mongosh --username admin --password {p} --authenticationDatabase admin",
        "openssl pkcs12 -export -out cert.pfx -inkey key.pem -in cert.pem -passout pass:{p}",
        "wget --user={u} --password={p} https://files.example.net/archive.zip",
        "net use Z: \\\\server\\share /user:{u} {p}",
        "smbclient //nas/share -U {u}%{p}",
        "mysqldump -uroot -p{p} --all-databases > dump.sql",
        "ldapsearch -x -D cn=admin,dc=example,dc=org -w {p} -b dc=example,dc=org",
        "zip -P {p} taxes-2025.zip *.pdf",
        "7z a -p{p} -mhe=on backup.7z Documents/",
        "keytool -importkeystore -srckeystore app.p12 -srcstorepass {p}",
        "ansible-playbook site.yml -e ansible_become_password={p}",
        "htpasswd -b .htpasswd {u} {p}",
        "sqlcmd -S localhost -U sa -P {p} -Q 'SELECT 1'",
        "kubectl create secret generic db --from-literal=password={p}",
        "rsync --password-file=<(echo {p}) -av photos/ rsync://{u}@nas/photos",
        "unrar x -p{p} archive.rar",
        "I always forget: it's `mysql -uadmin -p{p}` on the pi",
        "lftp -u {u},{p} ftp.example.org",
    ]
    for f in forms:
        p = human_password() if R.random() < 0.6 else strong_password()
        for ch in "'%,`<>()":
            p = p.replace(ch, "!")
        S("cli_password", f.format(u=user(), p=p), p)


def user_password_pairs() -> None:
    forms = [
        "router admin: admin / {p}",
        "login: {u} / {p}",
        "{u} / {p}",
        "user {u} pass {p}",
        "username: {u}\npassword: {p}",
        "creds for the staging box are {u}:{p}",
        "FTP {u}:{p} on files.example.net",
        "Utilisateur : {u} / Mot de passe : {p}",
        "Usuario {u}, contraseña {p}",
        "Benutzer {u} — Passwort {p}",
        "the login is {e} and the password {p}",
        "Netflix: {e} / {p}",
        "id {u} pw {p}",
        "Log in as {u} with {p}",
        "| service | user | password |\n|---|---|---|\n| nas | {u} | {p} |",
        "Steam: {u} // {p}",
        "Kid's tablet account, user: {u}, pass: {p}",
        "{e}:{p}",
        "camera (192.168.1.64) {u} / {p}",
        "wifi guest portal — login {u}, code {p}",
        "Login {e}\nPass {p}",
        "Usuário: {u} Senha: {p}",
        "логин {u} пароль {p}",
        "{u}\t{p}\t(bank)",
    ]
    for f in forms:
        p = human_password() if R.random() < 0.6 else strong_password()
        p = p.replace("|", "!")
        S("user_password", f.format(u=user(), e=email(), p=p), p)


def prose_passwords() -> None:
    forms = [
        "The wifi password at the cabin is {p}",
        "my netflix password is {p} if you need it",
        "Password for the NAS: {p}",
        "remember: the router admin pw is {p}",
        "the guest network passcode is {p}",
        "new password for the school portal → {p}",
        "Le mot de passe du wifi est {p}",
        "mon mot de passe Gmail : {p}",
        "mdp de la box : {p}",
        "La contraseña del router es {p}",
        "mi clave del banco es {p}",
        "Das WLAN-Passwort lautet {p}",
        "Mein Kennwort für das Portal ist {p}",
        "La password del wifi è {p}",
        "A senha do wi-fi é {p}",
        "Het wachtwoord van de wifi is {p}",
        "Hasło do wifi to {p}",
        "Lösenordet till wifi är {p}",
        "Passordet til ruteren er {p}",
        "Adgangskoden til netbank er {p}",
        "Wifin salasana on {p}",
        "Wifi şifresi: {p}",
        "Пароль от вайфая: {p}",
        "Пароль до пошти — {p}",
        "Heslo k wifi je {p}",
        "Ο κωδικός του wifi είναι {p}",
        "Wi-Fiのパスワードは{p}です",
        "パスワード：{p}",
        "wifi密码是{p}",
        "我的邮箱密码：{p}",
        "와이파이 비밀번호는 {p} 입니다",
        "كلمة المرور هي {p}",
        "הסיסמה לוויפי היא {p}",
        "वाईफाई का पासवर्ड {p} है",
        "Mật khẩu wifi là {p}",
        "Kata sandi wifi-nya {p}",
        "Parola de la wifi este {p}",
        "A wifi jelszó: {p}",
        "the password's {p}, all one word",
        "pw for the shared drive is {p} (case sensitive)",
    ]
    for f in forms:
        p = human_password()
        S("prose_password", f.format(p=p), p)
    # Plain words and digits only: nothing but the cue says they are passwords.
    for f, p in [
        ("the wifi password is {p}", R.choice(WORDS) + R.choice(WORDS)),
        ("Grandma's iPad password is {p}", digits(6)),
        ("mot de passe : {p}", R.choice(WORDS) + digits(4)),
        ("the password for the shed laptop is {p}", R.choice(WORDS)),
    ]:
        S("prose_password", f.format(p=p), p)


def pins_and_codes() -> None:
    def d(n: int) -> str:
        return digits(n)

    def combo() -> str:
        return f"{R.randint(1, 39)}-{R.randint(1, 39)}-{R.randint(1, 39)}"

    forms: list[tuple[str, Callable[[], str]]] = [
        ("My debit card PIN is {v}", lambda: d(4)),
        ("PIN for the SIM: {v}", lambda: d(4)),
        ("the alarm code is {v}, you have 30 seconds to disarm", lambda: d(4)),
        ("Door code for the building: {v}#", lambda: d(4)),
        ("gate code *{v}", lambda: d(4)),
        ("garage keypad code {v}", lambda: d(6)),
        ("the safe combination is {v}", combo),
        ("bike lock combination: {v}", lambda: d(4)),
        ("locker combo {v}", lambda: " ".join(str(R.randint(1, 39)) for _ in range(3))),
        ("Your verification code is {v}. Do not share it with anyone.", lambda: d(6)),
        ("G-{v} is your Google verification code", lambda: d(6)),
        ("PUK code {v}", lambda: d(8)),
        ("Code PIN de ma carte : {v}", lambda: d(4)),
        ("Die Geheimzahl meiner EC-Karte lautet {v}", lambda: d(4)),
        ("El PIN de la tarjeta es {v}", lambda: d(4)),
        ("código de acceso del portal: {v}", lambda: d(4)),
        ("ПИН-код карты {v}", lambda: d(4)),
        ("La combinazione della cassaforte è {v}", combo),
        ("Kod do domofonu: {v}", lambda: d(4)),
        ("lockbox code at the airbnb is {v}", lambda: d(4)),
        ("iPhone passcode is {v}", lambda: d(6)),
        ("voicemail PIN {v}", lambda: d(4)),
        ("Telephone banking passcode: {v}", lambda: d(6)),
        ("padlock combination {v}", lambda: d(3)),
        ("one-time code {v}", lambda: f"{d(3)} {d(3)}"),
        ("Der Zugangscode für die Haustür ist {v}", lambda: d(5)),
        ("le digicode de l'immeuble c'est {v}", lambda: R.choice("AB") + d(4)),
        ("my ATM pin is {v} don't tell anyone", lambda: d(4)),
        ("code du cadenas : {v}", lambda: d(4)),
        ("the key safe code is {v}", lambda: d(4)),
        ("暗証番号は{v}です", lambda: d(4)),
        ("银行卡密码 {v}", lambda: d(6)),
        ("Kombinacja do sejfu: {v}", combo),
        ("PIN: {v}", lambda: d(4)),
    ]
    for f, gen in forms:
        v = gen()
        S("pin_code", f.format(v=v), v)


def passphrases_and_recovery() -> None:
    def words(n: int, sep: str = " ") -> str:
        pool = (
            "anchor velvet cosmic tundra pickle orbit saddle muffin glacier harp quiver ember "
            "lagoon fossil zeppelin banjo nimbus tapestry kiwi raven"
        ).split()
        return sep.join(R.sample(pool, n))

    v = words(4)
    S("passphrase", f"GPG passphrase: {v}", v)
    v = words(5, "-")
    S("passphrase", f'The KeePass master passphrase is "{v}"', v)
    v = words(6)
    S("passphrase", f"ssh key passphrase → {v}", v)
    v = words(4, ".")
    S("passphrase", f"phrase secrète du coffre : {v}", v)
    v = "-".join(digits(6) for _ in range(8))
    S("passphrase", f"BitLocker recovery key: {v}", v)
    v = "-".join(pick(UPPER_ALNUM, 4) for _ in range(6))
    S("passphrase", f"FileVault recovery key {v}", v)
    codes = [f"{hexs(5)}-{hexs(5)}" for _ in range(10)]
    S("passphrase", "GitHub recovery codes:\n" + "\n".join(codes), *codes)
    codes = [digits(8) for _ in range(8)]
    S("passphrase", "2FA backup codes for google: " + " ".join(codes), *codes)
    t = pick(B32, 32)
    S("passphrase", f"TOTP secret for the VPN: {t}", t)
    t = pick(B32, 16)
    S(
        "passphrase",
        f"otpauth://totp/Example:sam@example.com?secret={t}&issuer=Example&digits=6",
        t,
    )
    v = "A3-" + "-".join(pick(UPPER_ALNUM, n) for n in (6, 6, 5, 5, 5, 5))
    S("passphrase", f"1Password secret key {v}", v)
    v = "-".join(pick(UPPER_ALNUM, 4) for _ in range(7))
    S("passphrase", f"Apple account recovery key: {v}", v)
    v = human_password()
    S("passphrase", f"Authy backup password: {v}", v)
    v = R.choice(["Biscuit", "Rufus", "Mittens", "Pickles"])
    S("passphrase", f"security question answer (first pet): {v}", v)
    v = words(1)
    S("passphrase", f"wallet passphrase (the 25th word) is {v}", v)
    v = words(3, "-")
    S("passphrase", f"Die Passphrase für das Backup lautet {v}", v)
    v = " ".join(pick(LOWER_ALNUM, 4) for _ in range(4))
    S("passphrase", f"Mastodon 2FA recovery code {v}", v)
    v = pick(UPPER_ALNUM, 5) + "-" + pick(UPPER_ALNUM, 5)
    S("passphrase", f"Proton recovery code: {v}", v)


def config_assignments() -> None:
    def printable(n: int) -> str:
        return pick(ALNUM + "!@#%^*(-_=+)", n)

    v = "django-insecure-" + printable(50)
    S("config", f"SECRET_KEY = '{v}'", v)
    v = printable(50)
    S("config", f"SECRET_KEY='{v}'", v)
    v = hexs(32)
    S("config", f"weather:\n  api_key: {v}\n  units: metric", v)
    v = b64url(40)
    S("config", f'"client_secret": "{v}",', v)
    v = pick(ALNUM, 32)
    S("config", f"X-API-Key: {v}", v)
    u, p = user(), human_password()
    basic = base64.b64encode(f"{u}:{p}".encode()).decode()
    S("config", f"Authorization: Basic {basic}", basic)
    v = hexs(32)
    S("config", f"https://api.example.com/v2/forecast?q=Lisbon&api_key={v}&units=metric", v)
    v = pick(ALNUM, 32)
    S("config", f"webhook signing secret: {v}", v)
    v = hexs(64)
    S("config", f"APP_SECRET={v}", v)
    v = printable(32)
    S("config", f'JWT_SECRET="{v}"', v)
    v = human_password()
    S("config", f'db:\n  host: localhost\n  user: kit\n  password: "{v}"', v)
    v = pick(ALNUM, 32)
    S("config", f'<add key="ApiKey" value="{v}" />', v)
    v = human_password()
    S("config", f"spring.datasource.password={v}", v)
    v = b64(43) + "="
    S("config", f"APP_KEY=base64:{v}", v)
    v = pick(ALNUM + "!@#%^*()-_=+[]{}<>~", 64)
    S("config", f"define( 'AUTH_KEY', '{v}' );", v)
    v = hexs(40)
    S("config", f'[auth]\ntoken = "{v}"', v)
    v = uuid4()
    S("config", f"machine api.heroku.com\n  login me@example.com\n  password {v}", v)
    v = human_password().replace(":", "!")
    S("config", f"~/.pgpass: db.example.com:5432:app:kit:{v}", v)
    v = b64(43) + "="
    S("config", f"NEXTAUTH_SECRET={v}", v)
    v = hexs(48)
    S("config", f"session secret = {v}", v)
    v = pick(ALNUM, 40)
    S("config", f"access_token: {v}", v)
    v = hexs(40)
    S("config", f"HMAC key {v}", v)
    v = pick(ALNUM, 24)
    S("config", f'const API_TOKEN = "{v}";', v)
    v = pick(ALNUM, 20)
    S("config", f"api_secret={v}", v)
    v = human_password()
    S("config", f'{{"username": "kit", "password": "{v}"}}', v)
    v = pick(ALNUM, 32)
    S("config", f"?token={v}", v)


def evasions() -> None:
    p = human_password()
    S("evasion", f"pass\u200bword: {p}", p)
    p = human_password()
    S("evasion", f"ｐａｓｓｗｏｒｄ： {p}", p)
    p = human_password()
    S("evasion", f"p4ssw0rd is {p}", p)
    p = human_password()
    S("evasion", f"p\u0430ssword = {p}", p)
    p = human_password()
    S("evasion", f"P A S S W O R D : {p}", p)
    p = human_password()
    S("evasion", f"the pwd is {p}", p)
    p = human_password()
    S("evasion", f"passwd={p}", p)
    t = pick(ALNUM, 36)
    S("evasion", f"ghp_\u200b{t}", t)
    t = pick(ALNUM, 36)
    S("evasion", f"token (spaces so it doesn't get flagged): g h p _ {t}", t)
    p = human_password()
    S("evasion", f"pass-word -> {p}", p)


# ---------------------------------------------------------------------------- look-alikes


def recipes() -> None:
    texts = [
        "Banana bread: 3 ripe bananas, 1/3 cup melted butter, 3/4 cup sugar, 1 egg, 1 tsp "
        "vanilla, 1 tsp baking soda, pinch of salt, 1 1/2 cups flour. Bake at 350°F for 60 min.",
        "Pancakes for 4: 200g flour, 2 eggs, 300ml milk, 1 tbsp sugar, 2 tsp baking powder. "
        "Rest the batter 10 minutes.",
        "Chili: brown 500 g beef, add 2 onions, 3 cloves garlic, 1 tbsp cumin, 2 tsp chili "
        "powder, 400 g tinned tomatoes, 1 can kidney beans. Simmer 45 min.",
        "Pizza dough — 500g 00 flour, 325ml water (65%), 10g salt, 3g dried yeast. Knead 10 min, "
        "prove 24h in the fridge.",
        "Lemon drizzle: 225g butter, 225g caster sugar, 4 eggs, 275g self-raising flour, zest "
        "of 1 lemon; syrup = juice of 1.5 lemons + 85g sugar. 180C / gas 4, 45-50 min.",
        "Overnight oats: 1/2 cup oats, 1/2 cup milk, 1/4 cup yogurt, 1 tbsp chia, honey to taste.",
        "Vinaigrette ratio 3:1 oil to vinegar, 1 tsp dijon, salt, pepper.",
        "Brine for the turkey: 1 gallon water, 1 cup kosher salt, 1/2 cup brown sugar, 3 bay "
        "leaves, 1 tbsp peppercorns. 12-24 hours.",
        "Sourdough schedule: 9:00 feed starter 1:5:5, 13:00 autolyse, 14:00 mix, 4x stretch & "
        "fold every 30 min, shape at 19:30, fridge overnight, bake 250°C 20' lid on + 25' off.",
        "Rice cooker: 2 cups jasmine rice, rinse 3x, 2 1/2 cups water, 'white' setting.",
        "Gâteau au yaourt : 1 pot de yaourt, 2 pots de sucre, 3 pots de farine, 1/2 pot d'huile, "
        "3 œufs, 1 sachet de levure. 35 min à 180°.",
        "Tortilla española: 6 huevos, 4 patatas, 1 cebolla, aceite de oliva, sal.",
        "Pesto: 50g basil, 30g pine nuts, 40g parmesan, 1 garlic clove, 100ml olive oil.",
        "cookies: 2 1/4 cups flour, 1 tsp soda, 1 tsp salt, 1 cup butter, 3/4 cup sugar, 3/4 "
        "cup brown sugar, 2 eggs, 2 cups chips. 375°F 9-11 min",
        "Cold brew 1:8 coffee to water, steep 16-18 h, dilute 1:1.",
        "Espresso: 18g in, 36g out, 28 s, grinder setting 2.4",
    ]
    for t in texts:
        L("recipe", t)


def books() -> None:
    for t in [
        "ISBN 978-0-14-143951-8",
        "The library copy is ISBN 9780262033848 (Introduction to Algorithms, 3rd ed.)",
        "isbn-10: 0-306-40615-2",
        "Can you order 978-1-4028-9462-6 for book club?",
        "ISBN: 978-3-16-148410-0, published 2004, 312 pages",
        "ISSN 0317-8471",
        "Call number QA76.73.P98 L88 2013",
        "DOI: 10.1038/s41586-020-2649-2",
        "arXiv:2310.06825v2 is the paper I meant",
        "ORCID 0000-0002-1825-0097",
    ]:
        L("book_id", t)


def tracking() -> None:
    L("tracking_number", f"UPS tracking 1Z{pick(UPPER_ALNUM, 6)}03{digits(8)}")
    L("tracking_number", f"FedEx: {digits(12)}, arriving Thursday")
    L("tracking_number", f"USPS 9400 1{digits(3)} {digits(4)} {digits(4)} {digits(4)} {digits(2)}")
    L("tracking_number", f"DHL waybill {digits(10)}")
    L("tracking_number", f"Royal Mail tracking: {pick(string.ascii_uppercase, 2)}{digits(9)}GB")
    L("tracking_number", f"colis La Poste n° 6A{digits(11)}")
    L("tracking_number", f"Your parcel {digits(14)} (DPD) will be delivered 14:00–15:00")
    L("tracking_number", f"Amazon: shipped via AMZL, tracking TBA{digits(12)}")
    L("tracking_number", f"Hermes tracking {digits(16)}")
    L("tracking_number", f"PostNL 3S{pick(UPPER_ALNUM, 4)}{digits(9)}")
    L("tracking_number", f"China Post LP{digits(14)}, 12-20 days")
    L("tracking_number", f"the return label is {digits(4)} {digits(4)} {digits(4)}")


def git_shas() -> None:
    for c in [
        "fixed in commit {h}",
        "git cherry-pick {h}",
        "commit {h}\nAuthor: Sam <sam@example.com>\nDate:   Tue Nov 3 10:21:09 2026 +0100",
        "the regression started at {h} according to bisect",
        "Merge pull request #4812 from acme/fix-login ({h})",
        "git revert {h} --no-edit",
        "pinned the action to actions/checkout@{h}",
        "{h} refs/heads/main",
    ]:
        L("git_sha", c.format(h=hexs(40)))
    for c in [
        "a3f9c21 fix typo in README",
        "see {h7}, it reverted the cache change",
        "HEAD is now at {h7} Add dark mode",
        "git show {h7}:src/app.py",
        "* {h7} (HEAD -> main, origin/main) bump deps\n* {h7b} docs: faq",
        "version 2.3.1 ({h7})",
        "git diff {h7}..{h7b} --stat",
    ]:
        L("git_sha", c.format(h7=hexs(7), h7b=hexs(7)))


def uuids() -> None:
    for c in [
        "request id {u}",
        "X-Request-ID: {u}",
        "{u}",
        "The order confirmation mentions reference {u}",
        "device UUID {u} shows up twice in the list",
        "https://app.example.com/projects/{u}/settings",
        "correlation_id={u} status=500 path=/api/upload",
        "Ticket {u} was closed",
        "Partition UUID: {u}",
        "calendar event uid {u}@google.com",
        "VM {u} is stuck in 'starting'",
        "trace {h32} took 1.8s",
    ]:
        L("uuid", c.format(u=uuid4(), h32=hexs(32)))


def colours() -> None:
    for t in [
        "paint the hallway #F4EDE4, trim #2E3A46",
        "brand colours: #ff8800, #1a1a2e, #e94560",
        "background: rgb(34, 139, 34); color: #fff;",
        "Pantone 19-4052 Classic Blue",
        "hsl(210, 40%, 96%)",
        "the sofa is RAL 7016 anthracite",
        "Farrow & Ball No. 291 Breakfast Room Green",
        "--accent: #7c3aed; --muted: #6b7280;",
        "Benjamin Moore HC-172 Revere Pewter",
        "CMYK 0/85/100/0 for the logo orange",
        "rgba(0,0,0,0.5) overlay",
    ]:
        L("colour", t)


def lists_and_poems() -> None:
    for t in [
        "shopping: milk, eggs, bread, butter, apples, bananas, coffee, rice, onions, garlic, "
        "tomatoes, cheese",
        "packing list\n- passport\n- charger\n- sunscreen\n- swimsuit\n- book\n- snacks",
        "todo: call plumber, renew passport, pay council tax, book dentist, return library "
        "books, water plants",
        "kids' chores: Mon dishes, Tue laundry, Wed bins, Thu hoover, Fri free",
        "Things to pack for camping: tent stakes rope lantern stove pot spoon blanket jacket "
        "boots map compass whistle",
        "gift ideas: scarf, candle, puzzle, coffee beans, board game, plant",
        "garden: plant tulip bulbs, prune roses, rake leaves, mulch beds, clean gutters",
        "word of the day list: ability, absorb, brave, canal, dinner, eagle, fabric, garden, "
        "habit, idea, jacket, kitchen",
        "Baby names we like: Olivia, Theo, Maya, Arthur, Iris, Felix, Nora, Hugo, Ada, Leo",
        "1. eggs\n2. flour\n3. sugar\n4. butter\n5. milk\n6. vanilla",
        "playlist: Blackbird, Yesterday, Let It Be, Hey Jude, Something, Help!",
        "Gym: squat 5x5 @ 80kg, bench 3x8 @ 55kg, row 3x10 @ 50kg, plank 3x60s",
    ]:
        L("list", t)
    for t in [
        "The woods are lovely, dark and deep,\nBut I have promises to keep,\nAnd miles to go "
        "before I sleep,\nAnd miles to go before I sleep.",
        "Shall I compare thee to a summer's day?\nThou art more lovely and more temperate",
        "Tyger Tyger, burning bright,\nIn the forests of the night;\nWhat immortal hand or eye,\n"
        "Could frame thy fearful symmetry?",
        "an old silent pond\na frog jumps into the pond\nsplash! silence again",
        "Roses are red, violets are blue, sugar is sweet, and so are you.",
        "I wandered lonely as a cloud\nThat floats on high o'er vales and hills,\nWhen all at "
        "once I saw a crowd,\nA host, of golden daffodils;",
        "Hope is the thing with feathers\nThat perches in the soul,\nAnd sings the tune without "
        "the words,\nAnd never stops at all",
        "river stone and winter moon, / orange lantern, silent tune, / marble pebble, velvet "
        "night, / comet falling out of sight",
        "Demain, dès l'aube, à l'heure où blanchit la campagne,\nJe partirai. Vois-tu, je sais "
        "que tu m'attends.",
        "Caminante, no hay camino,\nse hace camino al andar.",
        "Über allen Gipfeln\nIst Ruh,\nIn allen Wipfeln\nSpürest du\nKaum einen Hauch;",
        "lyrics I can't get out of my head: 'word up, every day, all the way, hey hey hey'",
    ]:
        L("poem", t)


def dates_prices_phones() -> None:
    for t in [
        "dentist on 2026-03-14 at 09:30",
        "Mum's birthday is 12/03/1958",
        "Meeting moved to Thu 5 Feb, 14:00–15:30 CET",
        "born 1987-07-22T04:15:00Z",
        "deadline: Friday 31st Oct",
        "flight leaves 06:45, lands 09:10 local",
        "from 2024-01-01 to 2024-12-31 inclusive",
        "timestamp 1767225600 in the log",
        "school holidays 20.12.–06.01.",
        "Q3 FY2026 results on 2026-10-28",
        "le 14 juillet 2026 à 22 h",
        "Ramadan starts ~18 Feb 2026",
    ]:
        L("date_time", t)
    for t in [
        "the jacket was $149.99, now €119",
        "Rent £1,250 pcm, deposit £1,442.31",
        "total: 2 x 12.50 + 3.20 delivery = 28.20",
        "It cost ¥12,800 at the station",
        "budget: groceries 450, transport 120, eating out 200, savings 600",
        "price per kWh 0.2734 EUR",
        "stock closed at 187.42 (+1.3%)",
        "Invoice total: 1.234,56 €",
        "BTC at 64,210 USD this morning",
        "tip 18% on 86.40 = 15.55",
        "salary 52k + 10% bonus",
        "R$ 349,90 em 10x sem juros",
    ]:
        L("price", t)
    for t in [
        "Call me at +1 415 555 0134",
        "Dr Patel's office: (212) 555-0198 ext. 204",
        "+44 20 7946 0958",
        "mobile 07700 900461",
        "+33 6 12 34 56 78",
        "Notruf 112, Polizei 110",
        "the plumber's number is 0161 496 0000",
        "tel: +49 30 901820",
        "WhatsApp +34 612 345 678",
        "fax +1-202-555-0147",
    ]:
        L("phone", t)


def orders() -> None:
    for t in [
        f"Order #112-{digits(7)}-{digits(7)}",
        f"Invoice INV-2026-{digits(5)}",
        f"booking ref {pick(string.ascii_uppercase, 3)}{digits(3)}, Hotel Lisboa, 2 nights",
        f"ticket #{digits(6)} opened with support",
        f"Purchase order PO-{digits(6)} approved",
        f"Your IKEA order {digits(10)} is ready for pickup",
        f"eBay item {digits(12)}",
        f"case number {digits(8)}",
        f"RMA {digits(7)} for the broken monitor",
        f"customer number {digits(9)}",
        f"policy no. {pick(string.ascii_uppercase, 2)}{digits(8)}",
        f"membership #{digits(6)}",
        f"Reservation confirmed: table for 4, ref {pick(UPPER_ALNUM, 8)}",
        f"Etsy order {digits(10)} shipped",
        f"Steam receipt transaction ID {digits(19)}",
    ]:
        L("order_number", t)


def hashes() -> None:
    L("file_hash", f"{hexs(64)}  ubuntu-24.04.1-desktop-amd64.iso")
    L("file_hash", f"SHA256: {hexs(64)}")
    L("file_hash", f"sha256sum of the release tarball is {hexs(64)}")
    L("file_hash", f"md5 {hexs(32)} matches")
    L("file_hash", f"Checksum (SHA-1): {hexs(40)}")
    L("file_hash", f"docker pull python@sha256:{hexs(64)}")
    L("file_hash", f'"integrity": "sha512-{b64(86)}=="')
    L("file_hash", f"requests==2.32.3 --hash=sha256:{hexs(64)}")
    L("file_hash", f"golang.org/x/text v0.14.0 h1:{b64(43)}=")
    L("file_hash", f"magnet:?xt=urn:btih:{hexs(40)}&dn=debian-12.iso")
    L("file_hash", f"oid sha256:{hexs(64)}\nsize 1048576")
    L("file_hash", f'hash = "sha256-{b64(43)}="')
    L("file_hash", f"the file's BLAKE3 is {hexs(64)}")
    L("file_hash", f'ETag: "{hexs(32)}"')
    L("file_hash", f'<script src="app.js" integrity="sha384-{b64(64)}" crossorigin></script>')
    L("file_hash", f"block {R.randint(800000, 900000)} hash 00000000000000000002{hexs(44)}")
    L("file_hash", f"tx {hexs(64)} has 3 confirmations")
    L("file_hash", f"Etherscan: transaction 0x{hexs(64)} succeeded")


def versions() -> None:
    for t in [
        "upgrade to v2.14.3",
        "Python 3.12.1 (main, Dec 8 2023)",
        "iOS 17.4 build 21E219",
        "1.0.0-rc.2+build.5",
        "kernel 6.8.0-45-generic",
        "node v20.11.0, npm 10.2.4",
        "firmware V1.2.7_20230915",
        "Chrome 131.0.6778.86",
        "macOS 14.5 (23F79)",
        "postgres 16.3 and pgvector 0.7.4",
    ]:
        L("version", t)


def chess() -> None:
    for t in [
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7",
        "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 — the Nimzo",
        "FEN: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "he played Qxf7# on move 4",
        "Rook to d8, then Kh1, g3, Kg2",
        "My rating went 1432 → 1487 this week",
        "puzzle: 1... Rxh2+ 2. Kxh2 Qh4+ 3. Kg1 Ng3",
    ]:
        L("chess", t)


def public_material() -> None:
    L(
        "public_key",
        "ssh-ed25519 "
        + base64.b64encode(b"\0\0\0\x0bssh-ed25519\0\0\0 " + rbytes(32)).decode()
        + " sam@laptop",
    )
    L(
        "public_key",
        "ssh-rsa "
        + base64.b64encode(
            b"\0\0\0\x07ssh-rsa\0\0\0\x03\x01\0\x01\0\0\x01\x01\0" + rbytes(256)
        ).decode()
        + " backup@nas",
    )
    L("public_key", f"[Peer]\nPublicKey = {b64(43)}=\nAllowedIPs = 10.8.0.3/32")
    L("public_key", f"my wireguard public key: {b64(43)}=")
    xpub = b58check(
        bytes.fromhex("0488b21e")
        + rbytes(1)
        + rbytes(4)
        + rbytes(4)
        + rbytes(32)
        + b"\x02"
        + rbytes(32)
    )
    L("public_key", f"watch-only wallet xpub: {xpub}")
    addr = b58check(b"\x00" + rbytes(20))
    L("public_key", f"send the BTC to {addr}")
    L("public_key", f"bitcoin address {bech32('bc', rbytes(20), 0)}")
    L("public_key", f"ETH address 0x{hexs(40)}")
    L("public_key", f"solana address {b58encode(rbytes(32))}")
    L("public_key", f"my Phantom wallet (public) is {b58encode(rbytes(32))}")
    L("public_key", f"ipfs://Qm{pick(B58, 44)}")
    L("public_key", f"follow me on nostr: {bech32('npub', rbytes(32))}")
    L("public_key", f"age recipient {bech32('age', rbytes(32))}")
    fpr = " ".join(pick("0123456789ABCDEF", 4) for _ in range(10))
    L("public_key", f"PGP fingerprint: {fpr}")
    L("public_key", f"host key fingerprint SHA256:{b64(43)}")
    cert, _ = pem("CERTIFICATE", bytes.fromhex("308203") + rbytes(700))
    L("public_key", cert)
    body = wrap64(base64.b64encode(b"\x99\x01\x0d" + rbytes(400)).decode())
    L(
        "public_key",
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n"
        + body
        + "\n="
        + b64(4)
        + "\n-----END PGP PUBLIC KEY BLOCK-----",
    )
    sigb = wrap64(base64.b64encode(b"\x88\x75" + rbytes(110)).decode())
    L(
        "public_key",
        "-----BEGIN PGP SIGNATURE-----\n\n"
        + sigb
        + "\n="
        + b64(4)
        + "\n-----END PGP SIGNATURE-----",
    )
    L("public_key", f"Stripe publishable key pk_live_{pick(ALNUM, 99)}")
    L("public_key", f"reCAPTCHA site key 6L{b64url(38)}")
    L("public_key", f"ENS name sam.eth resolves to 0x{hexs(40)}")


def cue_words_without_secrets() -> None:
    for t in [
        "zip code 94110",
        "use promo code SPRING24 for 20% off",
        "discount code WELCOME10 expires Sunday",
        "area code 212",
        "the dishwasher shows error code E24",
        "status code 404 on /about",
        "postal code SW1A 1AA",
        "airport code LHR, terminal 5",
        "scan the QR code at the table to order",
        "country code +351",
        "ICD-10 code J45.909",
        "HS code 8471.30 for the laptop",
        "SWIFT/BIC code DEUTDEFFXXX",
        "sort code 20-00-00 on the invoice",
        "course code CS101, room 4B",
        "dress code: smart casual",
        "the source code is on GitHub",
        "Windows stop code 0x0000007E",
        "I forgot my password again",
        "password reset link sent to your email",
        "Password must be at least 12 characters and include a number",
        "the password is wrong",
        "the wifi password is on the back of the router",
        "my password is too short apparently",
        "The password is stored in 1Password under 'Home'",
        "password is required",
        "change your password every 90 days",
        "Passwords don't match.",
        "pinned the message in the group",
        "a 3-pin plug",
        "PIN must be 4 to 6 digits",
        "I changed my PIN yesterday",
        "bowling: 9 pins on the first ball",
        "tokens per second: 42.7",
        "context window 200k tokens",
        "as a token of thanks we got them flowers",
        "the token expired, I need to log in again",
        "key lime pie for dessert",
        "Press the Enter key twice",
        "the key point is the deadline",
        "Sonata in C minor, key change at bar 32",
        "a combination of flour and water",
        "combination skin, so gel moisturiser",
        "never share your private key with anyone",
        "a passphrase should be at least five words",
        "secret santa budget is 25",
        "the secret ingredient is smoked paprika",
        "Le mot de passe est incorrect",
        "Olvidé mi contraseña",
        "Passwort vergessen?",
        "пароль неверный",
        "暗証番号を忘れました",
        "the code is on my laptop, I'll push it tonight",
        "code review at 3pm",
        "the combination lock on the shed is broken",
        "API keys rotate every 30 days per policy",
        "credentials are in the vault, ask Sam",
        "token ring networks were before ethernet",
        "PIN code: the four digits on the back of the letter",
        "the access code is printed on your ticket",
    ]:
        L("cue_word_no_secret", t)


def cli_lookalikes() -> None:
    for t in [
        "mkdir -p ~/projects/kit/data",
        "ssh -p 2222 sam@home.example.net",
        "docker run -p 8080:80 nginx:1.27",
        "mysql -u root -p",
        "mysql -u root -p shop < dump.sql",
        "echo $TOKEN | docker login --password-stdin -u sam ghcr.io",
        "pg_dump --no-password -h localhost app > app.sql",
        "git add -p",
        "scp -P 2222 notes.txt sam@nas:",
        "cp -p a.txt b.txt",
        "ps -p 1234 -o etime",
        "python -m pytest -p no:cacheprovider",
        "git log -p -- README.md",
        "iperf3 -c 10.0.0.5 -p 5201",
        "tar -xzpf backup.tgz",
        "grep -P '\\d{4}' log.txt",
        "mysql -h db -P 3306 -u app -p app",
        "rsync --password-file=/etc/rsync.secret -av photos/ nas::photos",
        "kubectl port-forward svc/web 8080:80",
        "lsof -p 4821",
        "nc -l -p 9000",
        "sshpass -f ~/.ssh/pass.txt ssh pi@raspberrypi.local",
        "read -s -p 'Password: ' PW",
        "openssl rand -hex 32",
    ]:
        L("cli_lookalike", t)


def pair_lookalikes() -> None:
    for t in [
        "and/or",
        "input/output error on /dev/sdb",
        "blood pressure 128/82 this morning",
        "ratio 16:9",
        "meet at 14:30",
        "localhost:8080/admin",
        "Matthew 5:9",
        "docker pull python:3.12-slim",
        "fe80::1ff:fe23:4567:890a",
        "C:\\Users\\sam\\Documents\\taxes",
        "London / Paris / Rome in 10 days",
        "git checkout feature/login-page",
        "/usr/local/bin/kit",
        "score 3:1 after extra time",
        "client/server architecture",
        "TCP/IP",
        "read/write access for the team",
        "sam@example.com",
        "Tom / Jerry costumes for the party",
        "Re: dinner on Friday",
        "note: buy stamps",
        "km/h",
        "it's 50/50 whether we go",
        "user: sam (no admin rights)",
        "username sam_k is taken, try sam.k",
        "login with Google / Apple / email",
        "https://example.com:8443/path?x=1",
        "redis://redis.internal:6379/0",
        "postgresql://kit@localhost/kit",
        "postgres://localhost:5432/app?sslmode=disable",
        "Account: sam.k@example.com",
        "Name: Lena Ortiz / Role: treasurer",
        "win/loss record 12/4",
    ]:
        L("pair_lookalike", t)


def identifiers() -> None:
    for t in [
        "server is at 192.168.1.20",
        f"MAC address {':'.join(hexs(2) for _ in range(6))}",
        "VIN 1HGCM82633A004352",
        f"IMEI {digits(15)}",
        f"serial number C02{pick(UPPER_ALNUM, 9)}",
        "arn:aws:iam::123456789012:role/backup-writer",
        f"instance i-0{hexs(16)} in eu-west-1",
        f"ami-0{hexs(16)}",
        f"pod web-7d9c8b6f5-{pick(LOWER_ALNUM, 5)} is CrashLoopBackOff",
        f"customer cus_{pick(ALNUM, 14)} refunded",
        f"payment intent pi_{pick(ALNUM, 24)}",
        f"charge ch_{pick(ALNUM, 24)}",
        f"spotify:track:{pick(ALNUM, 22)}",
        f"https://www.youtube.com/watch?v={b64url(11)}",
        f"https://docs.google.com/document/d/{b64url(44)}/edit",
        f"https://bit.ly/{pick(ALNUM, 7)}",
        f"discord user id {digits(18)}",
        "Google Analytics G-4XK9Q2L7RT",
        "PROJ-1234 is blocked by PROJ-1190",
        "licence plate KA-SK 2047",
        "flight BA117, seat 23A, gate B42",
        f"Zoom meeting ID {digits(3)} {digits(4)} {digits(4)}",
        "Wi-Fi network: Kitchen-5G",
        f"IBAN for the rent: GB{digits(2)} NWBK 6016 1331 9268 19",
        "ASIN B08N5WRWNW",
        f"https://www.dropbox.com/s/{pick(LOWER_ALNUM, 15)}/photos.zip?dl=0",
        f"Imgur album https://imgur.com/a/{pick(ALNUM, 7)}",
        f"AWS account 1234-5678-{digits(4)}",
        f"the container id is {hexs(12)}",
        f"EC2 key pair name: sam-laptop-{digits(4)}",
        f"Kindle serial G000 {pick(UPPER_ALNUM, 4)} {pick(UPPER_ALNUM, 4)} {pick(UPPER_ALNUM, 4)}",
        "Passport renewal form DS-82",
        f"Reddit post https://redd.it/{pick(LOWER_ALNUM, 7)}",
        f"tweet https://x.com/sam/status/{digits(19)}",
    ]:
        L("identifier", t)


def placeholders() -> None:
    for t in [
        'password = os.environ["DB_PASSWORD"]',
        "password: ${DB_PASSWORD}",
        "API_KEY=your-api-key-here",
        "token: <your-token>",
        "password=********",
        "api_key = getpass.getpass('API key: ')",
        "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
        'headers = {"Authorization": f"Bearer {token}"}',
        "OPENAI_API_KEY=sk-...",
        '{"password": ""}',
        "export AWS_SECRET_ACCESS_KEY=$(pass show aws/secret)",
        "Set PASSWORD_MIN_LENGTH = 12 in settings",
        "password_hash = bcrypt.hashpw(pw, bcrypt.gensalt())",
        "curl -H 'Authorization: Bearer $TOKEN' https://api.example.com",
        "password: !vault |",
        "secret_key: REPLACE_ME",
        "ANTHROPIC_API_KEY=  # fill in",
        "mysql -u $DB_USER -p$DB_PASS app",
        "token = load_token(path)",
        "PGPASSWORD is read from ~/.pgpass",
    ]:
        L("placeholder", t)


def everyday() -> None:
    for t in [
        "Can you remind me to pick up Maya from football at 5:15 tomorrow?",
        "Lunch with Priya at the Thai place on Fleet St, 12:30, table booked under Sam",
        "Weather looks like 14°C and showers, take the umbrella",
        "Score was 2-1, Ortiz scored in the 89th minute",
        "We drove 412 km today, fuel 6.1 l/100km",
        "The flat is 68 m², 3rd floor, no lift",
        "coordinates 48.8584° N, 2.2945° E",
        "x^2 + 5x + 6 = (x+2)(x+3)",
        "sequence ATGCGTACGTTAGCATCGATCGGATCCTAGCTAGG from the lab report",
        "Wordle 1,204 4/6\n⬜🟨⬜⬜⬜\n🟩⬜🟨⬜⬜\n🟩🟩🟩⬜🟩\n🟩🟩🟩🟩🟩",
        "sudoku row: 5 3 . . 7 . . . .",
        "lottery numbers 6 12 19 33 41 47, bonus 8",
        "Take the 73 bus to Stoke Newington, get off at Church St",
        "Room 4.17 in building C",
        "heart rate 58 bpm resting, HRV 62 ms",
        "Took 400mg ibuprofen at 14:00, next dose not before 20:00",
        "Dad's prescription: amlodipine 5 mg once a day",
        "Kids' shoe sizes: Maya EU 33, Theo EU 28",
        "My sister's address is 12 Rue des Lilas, 75020 Paris",
        "Let's do the 10k on Saturday, target pace 5:30/km",
        "the tent is 2.1 x 1.5 m and weighs 1.9 kg",
        "Reading: chapters 4-6 by Thursday",
        "thermostat schedule: 06:30 20.5°, 09:00 17°, 17:30 21°, 22:30 16°",
        "the car needs an MOT by 14/05 and new tyres 205/55 R16",
        "Bin day is Tuesday; recycling alternate weeks (blue week 2, 16, 30 March)",
        "Electricity meter reading 04512.7 kWh on 1 Nov",
        "BMI 23.4, weight 71.2 kg",
        "lol ok see u at 8",
        "haha yes!!! 🎉🎉",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa (sorry, the cat walked on the keyboard)",
        "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ",
        "Anagram of LISTEN: SILENT, ENLIST, TINSEL, INLETS",
        "Supercalifragilisticexpialidocious is 34 letters long",
        "Pneumonoultramicroscopicsilicovolcanoconiosis",
        "the Welsh town Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch",
        "hashtags: #MondayMotivation #100DaysOfCode",
    ]:
        L("everyday", t)


def data_blobs() -> None:
    L("base64_data", "echo aGVsbG8gd29ybGQ= | base64 -d   # prints hello world")
    L(
        "base64_data",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
        "+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    )
    L("base64_data", "Subject: =?UTF-8?B?UmU6IERpbm5lciBvbiBGcmlkYXk=?=")
    L("base64_data", "the font is woff2 (src: url(data:font/woff2;base64,d09GMgABAAAAA...))")


def main() -> None:
    for build in [
        vendor_tokens,
        cloud_keys,
        private_keys,
        key_material,
        wallet_keys,
        jwts,
        connection_strings,
        cli_passwords,
        user_password_pairs,
        prose_passwords,
        pins_and_codes,
        passphrases_and_recovery,
        config_assignments,
        evasions,
        recipes,
        books,
        tracking,
        git_shas,
        uuids,
        colours,
        lists_and_poems,
        dates_prices_phones,
        orders,
        hashes,
        versions,
        chess,
        public_material,
        cue_words_without_secrets,
        cli_lookalikes,
        pair_lookalikes,
        identifiers,
        placeholders,
        everyday,
        data_blobs,
    ]:
        build()
    counts = {"secret": 0, "lookalike": 0}
    for item in ITEMS:
        label = str(item["label"])
        counts[label] += 1
        item["id"] = f"{label[0]}{counts[label]:03d}"
    out = {
        "about": (
            "Kit's second secret-detector corpus (issue 30), written without reading the first "
            "corpus or the detector. All values are fake. Generated by "
            "bench/data/secrets_second_gen.py."
        ),
        "items": [
            {k: item[k] for k in ("id", "label", "kind", "text", "secret")} for item in ITEMS
        ],
    }
    path = Path(__file__).with_name("secrets-second.json")
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{counts['secret']} secrets, {counts['lookalike']} look-alikes -> {path}")


if __name__ == "__main__":
    main()
