"""Provider tokens by their published formats: the prefixed shapes of gitleaks' rule set
(github.com/gitleaks/gitleaks, config/gitleaks.toml, MIT; the rule id is named beside each)
for the providers detect-secrets 1.5 has no plugin for. Only rules whose prefix alone makes
the match a token are taken; gitleaks' rules that need a keyword nearby ("mailgun ... =") and
its generic rule are left to Kit's prose patterns (prose.py), which read sentences, not code.

Each rule carries the literal its token always holds, so a text holding none of them (most
text) costs one lowercase copy and a few substring tests, and no regex runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kit.secrets.base import KEY, PRIVATE_KEY, Secret

_END = r"(?![\w-])"  # a token ends where its characters do

# (kind, literal every match holds (lowercase), pattern)
_RULES: tuple[tuple[str, str, str], ...] = (
    (KEY, "hvs.", r"\bhvs\.[\w-]{90,120}"),  # vault-service-token
    (KEY, "hvb.", r"\bhvb\.[\w-]{138,300}"),  # vault-batch-token
    (KEY, "s.", r"(?<![\w.-])s\.[A-Za-z0-9]{24}" + _END),  # vault-service-token (legacy)
    (KEY, "shp", r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),  # shopify-*
    (KEY, "_v1_", r"\bdo[opr]_v1_[a-f0-9]{64}"),  # digitalocean-pat / -access / -refresh
    (KEY, "dapi", r"\bdapi[a-f0-9]{32}(?:-\d)?" + _END),  # databricks-api-token
    (KEY, "gocspx-", r"\bGOCSPX-[\w-]{28}"),  # Google OAuth client secret (Google's prefix)
    (KEY, "ya29.", r"\bya29\.[\w-]{20,}"),  # Google OAuth access token
    (KEY, "pmak-", r"\bPMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}"),  # postman-api-token
    (KEY, "key-", r"(?<![\w-])key-[a-f0-9]{32}" + _END),  # mailgun-private-api-token
    (KEY, "lin_api_", r"\blin_api_[A-Za-z0-9]{40}"),  # linear-api-key
    (KEY, "dp.pt.", r"\bdp\.pt\.[A-Za-z0-9]{43}"),  # doppler-api-token
    (KEY, "pplx-", r"\bpplx-[A-Za-z0-9]{48}"),  # perplexity-api-key
    (KEY, "sntry", r"\bsntryu_[a-f0-9]{64}|\bsntrys_eyJ[\w+/=]{40,}"),  # sentry-*-token
    (KEY, "pul-", r"\bpul-[a-f0-9]{40}"),  # pulumi-api-token
    (KEY, "rubygems_", r"\brubygems_[a-f0-9]{48}"),  # rubygems-api-token
    (KEY, "shippo_", r"\bshippo_(?:live|test)_[a-fA-F0-9]{40}"),  # shippo-api-token
    (KEY, "ntn_", r"\bntn_[0-9]{11}[A-Za-z0-9]{35}"),  # notion-api-token
    (KEY, "gl", r"\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|\bglc_[A-Za-z0-9+/]{32,400}={0,3}"),
    (KEY, "eyjrijoi", r"\beyJrIjoi[A-Za-z0-9]{70,400}={0,3}"),  # grafana-api-key
    (KEY, "gl", r"\b(?:glcbt-[0-9a-zA-Z]{1,5}_|gl(?:ffct|ft|imt|soat)-)[\w-]{20,}"),  # gitlab-*
    (KEY, "gloas-", r"\bgloas-[\w-]{64}|\bglagent-[\w-]{50}"),  # gitlab-oauth / -agent
    (KEY, "gr1348941", r"\bGR1348941[\w-]{20}"),  # gitlab-rrt
    (KEY, "ops_eyj", r"\bops_eyJ[A-Za-z0-9+/]{250,}={0,3}"),  # 1password-service-account-token
    (KEY, "pat", r"\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}"),  # airtable-personnal-access-token
    (KEY, "atatt3", r"\bATATT3[\w=-]{186}"),  # atlassian-api-token
    (KEY, "hrku-", r"\bHRKU-AA[\w-]{58}"),  # heroku-api-key-v2
    (KEY, "api_org_", r"\bapi_org_[A-Za-z]{34}"),  # huggingface-organization-api-token
    (KEY, "pscale_", r"\bpscale_(?:tkn|oauth|pw)_[\w=.-]{32,64}"),  # planetscale-*
    (KEY, "pnu_", r"\bpnu_[A-Za-z0-9]{36}"),  # prefect-api-token
    (KEY, "rdme_", r"\brdme_[a-z0-9]{70}"),  # readme-api-token
    (KEY, "xkeysib-", r"\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"),  # sendinblue-api-token
    (KEY, "sq0", r"\bsq0(?:atp|csp)-[\w-]{22,60}"),  # square-access-token / -secret
    (KEY, "dt0c01.", r"\bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}"),  # dynatrace-api-token
    (KEY, "ez", r"\bEZ[AT]K[A-Za-z0-9]{54}"),  # easypost-api-token
    (KEY, "fo1_", r"\bfo1_[\w-]{43}"),  # flyio-access-token
    (KEY, "fio-u-", r"\bfio-u-[\w=-]{64}"),  # frameio-api-token
    (KEY, "ico-", r"\bico-[a-zA-Z0-9]{32}" + _END),  # infracost-api-token
    (KEY, "nr", r"\bNR(?:AK-[A-Z0-9]{27}|II-[\w-]{32}|JS-[a-f0-9]{19})"),  # new-relic-*
    (KEY, "sha256~", r"\bsha256~[\w-]{43}"),  # openshift-user-token
    (KEY, "tk-us-", r"\btk-us-[\w-]{48}"),  # scalingo-api-token
    (KEY, "p8e-", r"\bp8e-[A-Za-z0-9]{32}"),  # adobe-client-secret
    (KEY, "clojars_", r"(?i:\bCLOJARS_[a-z0-9]{60})"),  # clojars-api-token
    (KEY, "duffel_", r"\bduffel_(?:test|live)_[\w=-]{43}"),  # duffel-api-token
    (KEY, "absk", r"\bABSK[A-Za-z0-9+/]{109,269}={0,2}"),  # aws-amazon-bedrock-api-key
    (KEY, "q~", r"(?<![\w~.])[\w~.]{3}\dQ~[\w~.-]{31,34}(?![\w~.-])"),  # azure-ad-client-secret
    (KEY, "eaa", r"\bEAA[MC][A-Za-z0-9]{100,}"),  # facebook-page-access-token
    (KEY, "tfp_", r"\btfp_[\w.=-]{59}"),  # typeform-api-token
    (KEY, "v1.0-", r"\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}"),  # cloudflare-origin-ca-key
    (KEY, "atlasv1", r"\b[a-z0-9]{14}\.atlasv1\.[\w=-]{60,70}"),  # hashicorp-tf-api-token
    (KEY, "at.", r"\b(?:pat|sat)\.[\w-]{22}\.[a-zA-Z0-9]{24}\.[a-zA-Z0-9]{20}"),  # harness
    (KEY, "a3-", r"\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})(?:-[A-Z0-9]{5}){3}"),
    (KEY, "discord", r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[\w-]{60,}"),
    (KEY, "hooks.slack.com", r"(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}"),
    (KEY, "webhook.office.com", r"https://[a-z0-9]+\.webhook\.office\.com/webhookb2/[\w@/-]{60,}"),
    (PRIVATE_KEY, "age-secret-key-1", r"\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
)  # fmt: skip

_COMPILED = tuple((kind, literal, re.compile(pattern)) for kind, literal, pattern in _RULES)


def find_providers(text: str) -> Iterator[Secret]:
    lowered = text.lower()
    for kind, literal, pattern in _COMPILED:
        if literal in lowered:
            for match in pattern.finditer(text):
                yield Secret(kind, match.start(), match.end())
