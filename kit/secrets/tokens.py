"""API keys, tokens and private keys: detect-secrets' provider plugins (the one module that
imports it) plus the shapes those plugins miss.

Only the plugins that match a provider's own key format are used. Its high-entropy plugins
flag hashes and long quoted words, its keyword plugin is written for source code (quoted
assignments), and a public IP address is not a secret; Kit's prose patterns (prose.py) cover
"the api key is ...". The plugins are called through `analyze_string`, which is pure regex:
`analyze_line` may try to verify a key over the network, which Kit never does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from detect_secrets.plugins.artifactory import ArtifactoryDetector
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.base import BasePlugin
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.cloudant import CloudantDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.ibm_cloud_iam import IbmCloudIamDetector
from detect_secrets.plugins.ibm_cos_hmac import IbmCosHmacDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.private_key import PrivateKeyDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.softlayer import SoftlayerDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

from kit.secrets.base import KEY, PASSWORD, PRIVATE_KEY, Secret

_PLUGINS: tuple[tuple[str, BasePlugin], ...] = (
    *(
        (KEY, plugin())
        for plugin in (
            ArtifactoryDetector,
            AWSKeyDetector,
            AzureStorageKeyDetector,
            CloudantDetector,
            DiscordBotTokenDetector,
            GitHubTokenDetector,
            GitLabTokenDetector,
            IbmCloudIamDetector,
            IbmCosHmacDetector,
            JwtTokenDetector,
            MailchimpDetector,
            NpmDetector,
            OpenAIDetector,
            PypiTokenDetector,
            SendGridDetector,
            SlackDetector,
            SoftlayerDetector,
            SquareOAuthDetector,
            StripeDetector,
            TelegramBotTokenDetector,
            TwilioKeyDetector,
        )
    ),
    (PRIVATE_KEY, PrivateKeyDetector()),
    (PASSWORD, BasicAuthDetector()),
)

# Shapes the plugins lack (or match only in part), each a whole value to withhold, with the
# literals (lowercase) one of which every match holds: text holding none skips the pattern.
_SHAPES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    (KEY, ("aiza",), re.compile(r"\bAIza[0-9A-Za-z_\-]{35}")),  # Google API key
    (KEY, ("hf_",), re.compile(r"\bhf_[A-Za-z0-9]{30,}")),  # Hugging Face
    (KEY, ("github_pat_",), re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,}")),
    (KEY, ("gl",), re.compile(r"\bgl(?:pat|dt|rt|ptt)-[A-Za-z0-9_\-]{20,}")),  # GitLab
    (KEY, ("npm_",), re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    # sk_/rk_: secret and restricted keys (a publishable pk_ key is public by design)
    (
        KEY,
        ("sk-", "sk_", "rk-", "rk_"),
        re.compile(r"\b(?:sk|rk)[-_](?:live_|test_|proj-|ant-)?[A-Za-z0-9_\-]{16,}"),
    ),
    (KEY, ("gh",), re.compile(r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}")),
    (KEY, ("xox", "xapp"), re.compile(r"\b(?:xox[abposre]|xapp)-[A-Za-z0-9\-]{10,}")),  # Slack
    (KEY, ("akia", "asia"), re.compile(r"\bA(?:KIA|SIA)[A-Z0-9]{16}\b")),  # AWS access key id
    (KEY, ("ltai",), re.compile(r"\bLTAI[A-Za-z0-9]{12,20}\b")),  # Alibaba Cloud AccessKey id
    (KEY, (":aa",), re.compile(r"(?<!\d)\d{6,12}:AA[A-Za-z0-9_\-]{30,}")),  # Telegram bot token
    (
        KEY,
        ("eyj",),
        re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*"),  # JWT
    ),
    # An AWS secret access key (40 base64 characters) anywhere near its name.
    (
        KEY,
        ("aws", "secret"),
        re.compile(
            r"(?i:aws|secret[_ ]access[_ ]key).{0,40}?"
            r"(?<![A-Za-z0-9/+])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"
        ),
    ),
    (KEY, ("accountkey",), re.compile(r"(?i:AccountKey)=([A-Za-z0-9/+]{40,}={0,2})")),  # Azure
)

# A shape filled in by documentation: "xoxb-your-slack-token".
_SAMPLE = re.compile(r"(?i)[-_]your[-_]|<|\byour\b")

# What every match of a plugin holds (lowercase), so most text need not run its regexes: read
# off each plugin's denylist (detect-secrets 1.5); tests/trust/test_secret_detector.py checks that
# a plugin gated this way finds exactly what it finds ungated, over the whole corpus and LoCoMo.
_NEEDS: dict[type[BasePlugin], tuple[str, ...]] = {
    ArtifactoryDetector: ("akc", "ap"),
    CloudantDetector: ("cl",),
    IbmCloudIamDetector: ("key", "pwd", "pass", "token"),
    IbmCosHmacDetector: ("key",),
    SoftlayerDetector: ("key", "pwd", "pass", "token", "softlayer"),
    MailchimpDetector: ("-us",),
    StripeDetector: ("k_live_",),
    SlackDetector: ("xox", "hooks.slack.com"),
    TwilioKeyDetector: ("ac", "sk"),
    GitLabTokenDetector: ("gl",),
    JwtTokenDetector: ("eyj",),
    AWSKeyDetector: ("a3t", "abia", "acca", "akia", "asia", "aws"),
    AzureStorageKeyDetector: ("accountkey=",),
    GitHubTokenDetector: ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    NpmDetector: ("_authtoken",),
    OpenAIDetector: ("t3blbkfj",),
    PypiTokenDetector: ("pypi-",),
    SendGridDetector: ("sg.",),
    SquareOAuthDetector: ("sq0csp-",),
    TelegramBotTokenDetector: (":",),
    PrivateKeyDetector: ("begin ", "putty-user-key-file-2"),
    BasicAuthDetector: ("://",),
}

_SHORTEST = 6  # a plugin's match shorter than this is a fragment, not a value to withhold
_TOKEN_CHAR = re.compile(r"[A-Za-z0-9_\-]")


def find_tokens(text: str) -> Iterator[Secret]:
    lowered = text.lower()
    for kind, literals, pattern in _SHAPES:
        if not any(literal in lowered for literal in literals):
            continue
        for match in pattern.finditer(text):
            group = 1 if pattern.groups else 0
            if not _SAMPLE.search(match.group(group)):
                yield Secret(kind, match.start(group), match.end(group))
    for kind, plugin in _PLUGINS:
        needs = _NEEDS.get(type(plugin))
        if needs is not None and not any(n in lowered for n in needs):
            continue
        # each distinct value once: every place it occurs is found below (a value repeated
        # n times would otherwise cost n * n)
        for value in dict.fromkeys(str(v) for v in plugin.analyze_string(text)):
            if len(value) < _SHORTEST:
                continue
            at = text.find(value)
            while at != -1:
                yield _whole(kind, text, at, at + len(value))
                at = text.find(value, at + len(value))


def _whole(kind: str, text: str, start: int, end: int) -> Secret:
    """A plugin's match grown to the whole token around it: its regex may stop short of the
    end (a 37-character bot token matched as 35 would leave its tail in the text)."""
    while end < len(text) and _TOKEN_CHAR.match(text, end) and _TOKEN_CHAR.match(text, end - 1):
        end += 1
    return Secret(kind, start, end)
