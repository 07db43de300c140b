"""The secret detector (kit/secrets/) on forms it was not built from (issue 30): its second
corpus (bench/data/secrets-second.json, written before the detector was read), the set written
after tuning (bench/data/secrets-after.json), the forms issue 30 found stored, the shapes it
generalises from (kit/secrets/shapes.py), and code and markup that keep their text."""

from __future__ import annotations

import pytest

from kit.secrets import WITHHELD, find_secrets, withhold_secrets
from kit.secrets.normalise import normalise
from kit.secrets.shapes import looks_random, placeholder
from tests.trust.secret_rates import AFTER, SECOND, Item, handled, load

SECOND_ITEMS = load(SECOND)
AFTER_ITEMS = load(AFTER)


def test_the_second_corpus_is_big_and_varied_enough_to_mean_something() -> None:
    secrets = [i for i in SECOND_ITEMS if i.label == "secret"]
    lookalikes = [i for i in SECOND_ITEMS if i.label == "lookalike"]
    assert len(secrets) >= 250 and len(lookalikes) >= 250
    assert len({i.kind for i in secrets}) >= 12 and len({i.kind for i in lookalikes}) >= 15
    assert all(part in i.text for i in secrets for part in i.parts)


def test_the_second_corpus_meets_the_goal() -> None:
    """Issue 30: at least 95% of its secrets withheld, at most 1% of its look-alikes changed."""
    secrets = [i for i in SECOND_ITEMS if i.label == "secret"]
    lookalikes = [i for i in SECOND_ITEMS if i.label == "lookalike"]
    withheld = sum(handled(i) for i in secrets)
    changed = sum(not handled(i) for i in lookalikes)
    assert withheld >= 0.95 * len(secrets), withheld
    assert changed <= 0.01 * len(lookalikes), changed


@pytest.mark.parametrize("item", SECOND_ITEMS + AFTER_ITEMS, ids=lambda i: f"{i.id}-{i.kind}")
def test_every_item_of_the_corpora_written_apart(item: Item) -> None:
    """Each secret of the two corpora has no part left; each look-alike is left as it was."""
    assert handled(item), withhold_secrets(item.text)


# -- issue 30: the forms it found stored ----------------------------------------------------------

WIREGUARD = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk="
# typed by hand, for an example: its checksum does not hold, its shape says what it is
XPRV = (
    "xprv9s21ZrQH143KfakeKeyForTheTestsOnly8aBcDeFgHiJkLmNoPqRsTuVwXyZ2345678aBcDeFgHiJkLmNoPqRs"
    "TuVwXyZ23456789abcdefg"
)
SOLANA = "4NwwCq5bBFBbL7GNWEnuHnSWZbQJGiqz6v8XrBf8hGjLq1jzZ3uNBfdCb5HyLX6iw4Wq2sP9Rm3GdHyJcVtX8K2a"
ISSUE_FORMS = [
    (
        "Docker token",
        "dckr_pat_3kQm9XzR1vT7bW2yN5pL8cJ0hF4",
        "dckr_pat_3kQm9XzR1vT7bW2yN5pL8cJ0hF4",
    ),
    ("WireGuard", f"[Interface]\nPrivateKey = {WIREGUARD}\nListenPort = 51820", WIREGUARD),
    ("BIP32 xprv", f"my master key {XPRV}", XPRV),
    ("Solana", f"solana private key {SOLANA}", SOLANA),
    ("sshpass", "sshpass -p 'Vq7#kLm2Rt' ssh backup@nas.local", "Vq7#kLm2Rt"),
    ("user / password", "NAS admin / Tr4il-Mix99", "Tr4il-Mix99"),
    ("user / password", "plex: sam.r / Qx81!mono", "Qx81!mono"),
    ("safe combination", "safe: 24-36-12", "24-36-12"),
    ("safe combination", "the safe opens with 24-36-12", "24-36-12"),
]


@pytest.mark.parametrize(("name", "text", "value"), ISSUE_FORMS, ids=[f[0] for f in ISSUE_FORMS])
def test_the_forms_issue_30_found_stored_are_withheld(name: str, text: str, value: str) -> None:
    assert value not in withhold_secrets(text), name


# Classes found while building this, each once (the corpora hold more of each).
MORE_FORMS = [
    ("The combination is 12-34-56", "12-34-56"),
    ("ATM code 4821", "4821"),
    ("my PIN? it's 4821", "4821"),
    ("Use code 383443 to sign in. It expires in 10 minutes.", "383443"),
    (
        "https://maker.ifttt.com/trigger/door/with/key/dQ9vX2kLm4ZpR7tYb1NcW3",
        "dQ9vX2kLm4ZpR7tYb1NcW3",
    ),
    (
        "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: rsa-key\n"
        "P2/56wAAANAAAAA3aWYtbW9kbntzaWdue3JzYS1wa2NzMS1zaGExfSxlbmNyeXB0\n"
        "---- END SSH2 ENCRYPTED PRIVATE KEY ----",
        "P2/56wAAANAAAAA3aWYtbW9kbntzaWdue3JzYS1wa2NzMS1zaGExfSxlbmNyeXB0",
    ),
    ('expect "password:"\nsend "PsU5mrbCHLQ23\\r"', "PsU5mrbCHLQ23"),
    ("Heslo k wifi je 0tt3r-45", "0tt3r-45"),
    ("Mật khẩu wifi là COB1590cact", "COB1590cact"),
    ("lockbox: 4471", "4471"),
]


@pytest.mark.parametrize(("text", "value"), MORE_FORMS, ids=[f[1][:20] for f in MORE_FORMS])
def test_more_forms_of_the_same_structure(text: str, value: str) -> None:
    assert value not in withhold_secrets(text)


def test_the_user_of_a_pair_stays_and_its_password_goes() -> None:
    assert withhold_secrets("plex: sam.r / Qx81!mono") == f"plex: sam.r / {WITHHELD}"
    assert withhold_secrets("curl -u jdoe:orange_falcon- https://nas.local") == (
        f"curl -u jdoe:{WITHHELD} https://nas.local"
    )


# -- the shapes the detector generalises from ------------------------------------------------------


@pytest.mark.parametrize(
    "run",
    [
        "q8ZtR2mWc9LpX4vN7bK1sJ6hY3fD",  # base62
        "b7F+2kQ/9xLmZ0pRtV5wYc8nHs3Ja1Ue",  # base64
        "3ka7Y51ruC8R1ZNTERTQXmHy8zGx48Ra",  # base58
    ],
)
def test_a_run_drawn_at_random_looks_random(run: str) -> None:
    assert looks_random(run)


@pytest.mark.parametrize(
    "run",
    [
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",  # a hash: hex
        "mockErrorResponse429",  # an identifier
        "Flask-SQLAlchemy==2.5.1Flask-Login==0.5.0Werkzeug==2.0.1",  # versions joined
        "Pneumonoultramicroscopicsilicovolcanoconiosis",  # a word
        "IMG_20240101_123456",  # a file name
    ],
)
def test_what_is_long_but_not_random_does_not(run: str) -> None:
    assert not looks_random(run)


@pytest.mark.parametrize(
    "text",
    [
        # random runs that are public by their place, their opening or their name
        "https://docs.google.com/document/d/1aBcD3fGhIjK4lMnOpQ5rStUvWxYz7AbCdEfGh8/edit",
        "my wireguard public key: rWfcwGMK66lC4Nk9ZeLxIHdhWb4+IMrU8Aq6dGhCeqK=",
        "watch-only xpub661MyMwAqRbcFcqaPKXkn43pC8gnF9vyPhcaNmEJzxXVZEeT1cqmFicExKcUVYi5bZUoc4jhHn"
        "vW8fKTCYwnmWd22pwEVxrCp4FQhYNgxba",
        "requests==2.32.3 --hash=sha256:"
        "70761cfe03c773ceb22aa2f671b4757976145175cdfca038c02654d061d6dcc3",
        '"integrity": "sha512-q583ppKrCRc7VXeEmd9Q9zGGcSUm6GrGdLrNtq75un98dP'
        'j6dGm127NRei1pg4NaG2yg=="',
        "Stripe publishable key pk_live_HglAR8im52IjqJod6ZGttLZxhLWYEWZWS2joc490ttkJnzarhFAQ",
        "payment intent pi_3MtwBwLkdIwHu7ix28a3tqPa",
        "send the BTC to 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
        "transaction 0xa4c123b1612dd272d1371c17149d439536b3216fdaeeb975729fae923d5a4fd1 confirmed",
    ],
)
def test_public_random_runs_keep_their_text(text: str) -> None:
    assert find_secrets(text) == [], withhold_secrets(text)


@pytest.mark.parametrize(
    "value",
    ["${DB_PASSWORD}", "<your-token>", "********", "[Your Password]", "os.environ['X']",
     "request.form['password']", "wrong_password", "pbkdf2:sha256:260000$zL6y$5b7c", "$DB_PASS"],
)  # fmt: skip
def test_what_only_stands_for_a_value_is_a_placeholder(value: str) -> None:
    assert placeholder(value)


@pytest.mark.parametrize("value", ["Tr0ub4dor&3", "Password1!", "$lDPOMqai_", "hunter2"])
def test_a_chosen_value_is_not_a_placeholder(value: str) -> None:
    assert not placeholder(value)


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("P A S S W O R D : x", "PASSWORD : x"),
        ("pass-word -> x", "password -> x"),
        ("p.i.n: 4821", "pin: 4821"),
    ],
)
def test_a_name_written_apart_is_read_joined(written: str, read: str) -> None:
    normalised = normalise(written)
    assert normalised.text == read
    assert normalised.span(len(read) - 1, len(read)) == (len(written) - 1, len(written))


# -- code and markup keep their text (issue 30's look-alikes, BEAM's coding turns) --------------

CODE = [
    "username = db.Column(db.String(80), unique=True, nullable=False)",
    "if not username or not password:\n        return jsonify({'error': 'missing'}), 400",
    "password = request.form['password']\nhashed = generate_password_hash(password)",
    '<label for="password">Password</label>\n<input type="password" id="password">',
    "### 2. **Password Hashing**\nUse bcrypt; never store plain passwords.",
    "from flask_login import LoginManager, UserMixin, login_required",
    "new_user = User(username=username, password=hashed_password)",
    "confirm_password = PasswordField('Confirm Password', validators=[DataRequired()])",
    "- Facebook: Username: [Your Username], Password: [Your Password]",
    "echo $TOKEN | docker login --password-stdin -u sam ghcr.io",
    "rsync --password-file=/etc/rsync.secret -av photos/ nas::photos",
    "docker run -u 1000:1000 -p 8080:80 nginx:1.27",
    "git checkout feature/login-page && git push origin HEAD",
    "| service | user | notes |\n|---|---|---|\n| nas | sam | password in 1Password |",
    "TLS cert fingerprint: 9F:86:D0:81:88:4C:7D:65:9A:2F:EA:A0:C5:5A:D0:15:A3:BF:4F:1B:2B:0B",
    "My favourite password manager is Bitwarden",
    "The alarm is at 6:45 and the second alarm at 7:00",
]


@pytest.mark.parametrize("text", CODE, ids=[t[:40] for t in CODE])
def test_code_and_markup_keep_their_text(text: str) -> None:
    assert withhold_secrets(text) == text
