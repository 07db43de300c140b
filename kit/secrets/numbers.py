"""Card numbers and IBANs, recognised by their checksums so order numbers, phone numbers and
tracking codes are left alone."""

from __future__ import annotations

import re
from collections.abc import Iterator

from kit.secrets.base import CARD, IBAN, Secret

# 13-19 digits, grouped by spaces, dots or dashes (or not at all), a line break allowed.
_CARD = re.compile(r"(?<![\w.\-])\d(?:(?:[ .\-]|\n(?=\d))?\d){12,18}(?![\w]|[.\-]\d)")
# Issuer prefixes (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro) and their
# lengths: a Luhn-valid number outside them is far more often an id than a card.
_ISSUERS = re.compile(
    r"^(?:4\d{12}(?:\d{3}){0,2}|5[1-5]\d{14}|2(?:2[2-9]|[3-6]\d|7[01])\d{13}|2720\d{12}"
    r"|3[47]\d{13}|6(?:011|5\d\d|4[4-9]\d)\d{12,15}|35(?:2[89]|[3-8]\d)\d{12,15}"
    r"|3(?:0[0-5]|[68]\d)\d{11,16}|62\d{14,17}|(?:50|5[6-9]|6\d)\d{10,17})$"
)

# Country code -> IBAN length (the SWIFT registry).
_IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28,
    "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
    "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
    "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20,
    "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18,
    "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24,
    "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TN": 24,
    "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}  # fmt: skip
_DIGITS = re.compile(r"\d+")
_IBAN_START = re.compile(r"(?<![A-Za-z0-9])([A-Z]{2})(\d{2})(?=[ ]?[A-Z0-9])")
_IBAN_CHAR = re.compile(r"[ \n]?([A-Z0-9])")


def luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch)
        if i % 2 == 1:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0


def _cards(text: str) -> Iterator[Secret]:
    for match in _CARD.finditer(text):
        # A run may hold a card beside other numbers ("order 12 4111 1111 1111 1111 09/27"):
        # try every window of whole digit groups, longest first.
        groups = list(_DIGITS.finditer(match.group()))
        ends = [0]  # digits before group i: ends[j + 1] - ends[i] is the window's length
        for group in groups:
            ends.append(ends[-1] + len(group.group()))
        windows = sorted(
            (
                (i, j)
                for i in range(len(groups))
                for j in range(i, len(groups))
                if 13 <= ends[j + 1] - ends[i] <= 19
            ),
            key=lambda w: w[0] - w[1],
        )
        for i, j in windows:
            digits = "".join(g.group() for g in groups[i : j + 1])
            if _ISSUERS.match(digits) and luhn(digits):
                base = match.start()
                yield Secret(CARD, base + groups[i].start(), base + groups[j].end())
                break


def _iban_valid(iban: str) -> bool:
    moved = iban[4:] + iban[:4]
    return int("".join(str(int(ch, 36)) for ch in moved)) % 97 == 1


def _ibans(text: str) -> Iterator[Secret]:
    for start in _IBAN_START.finditer(text):
        length = _IBAN_LENGTHS.get(start.group(1))
        if length is None:
            continue
        chars, at = [start.group(1), start.group(2)], start.end()
        while len("".join(chars)) < length:
            more = _IBAN_CHAR.match(text, at)
            if more is None:
                break
            chars.append(more.group(1))
            at = more.end()
        iban = "".join(chars)
        if len(iban) == length and _iban_valid(iban):
            yield Secret(IBAN, start.start(), at)


def find_numbers(text: str) -> Iterator[Secret]:
    yield from _cards(text)
    yield from _ibans(text)
