"""What model calls cost, for the reports that print a cost (`kit eval qa`,
bench/real_model.py). A role's `price_input` / `price_output` (USD per million tokens) win;
else the list prices of Kit's default models (the provider's record, kit/providers.py);
else the cost is unknown (a local model costs electricity, not tokens)."""

from __future__ import annotations

from kit.llm.base import Usage
from kit.model_settings import ModelRole
from kit.providers import provider


def price(role: ModelRole) -> tuple[float, float] | None:
    if role.price_input is not None and role.price_output is not None:
        return role.price_input, role.price_output
    if not role.hosted_by_provider:
        return None  # a proxy or a server of the owner's own: its price is its own
    # USD per million tokens, from the provider's record (kit/providers.py)
    listed = {model: (i, o) for model, i, o in provider(role.provider).list_prices}
    return listed.get(role.model)


def cost(usage: Usage, role: ModelRole) -> float | None:
    """USD for `usage` at the role's price; None when the price is unknown. Cached reads
    are charged at a tenth of the input price, cache writes at 1.25 times (Anthropic's
    rates; OpenAI's cached reads are discounted less, so there it is a lower bound)."""
    found = price(role)
    if found is None:
        return None
    per_input, per_output = found
    tokens_in = usage.input_tokens + 0.1 * usage.cache_read_tokens + 1.25 * usage.cache_write_tokens
    return (tokens_in * per_input + usage.output_tokens * per_output) / 1_000_000
