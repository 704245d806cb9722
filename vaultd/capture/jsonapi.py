"""What the JSON metadata APIs share: DOI URLs with the polite-pool ``mailto``, the
status and JSON handling of one GET, ORCID ids and open-access PDF URLs. CrossRef and
OpenAlex use it; ``not_found`` and ``pdf_urls`` take what Unpaywall differs in."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from typing import Any
from urllib.parse import quote

from vaultd.capture.http import Fetcher
from vaultd.errors import FetchError

# DOIs keep their '/' and the punctuation real DOIs contain in a URL path.
_DOI_SAFE = "/:;()<>"


def api_url(base: str, path: str, doi: str, email: str | None = None) -> str:
    """``{base}/{path}{doi}``, the DOI percent-quoted, with ``?mailto=`` when configured."""
    url = f"{base.rstrip('/')}/{path}{quote(doi, safe=_DOI_SAFE)}"
    return url + (f"?mailto={quote(email)}" if email else "")


async def get_json(
    fetcher: Fetcher,
    url: str,
    *,
    source: str,
    label: str,
    doi: str,
    not_json_is_error: bool,
    not_found: Collection[int] = (404, 400),
) -> dict[str, Any] | None:
    """The JSON object at ``url``; None on a ``not_found`` status (the DOI is unknown
    there) or when the body is not a JSON object. Other statuses raise ``FetchError``; so
    does a body that is not JSON when ``not_json_is_error`` (a source that never serves
    HTML error pages)."""
    resp = await fetcher.get(url, source=source)
    if resp.status in not_found:
        return None
    if resp.status != 200:
        raise FetchError(f"{label} answered HTTP {resp.status} for {doi}; retry later")
    try:
        data = json.loads(resp.body)
    except ValueError as exc:
        if not_json_is_error:
            raise FetchError(f"{label} sent something that is not JSON for {doi}; retry later") \
                from exc
        return None
    return data if isinstance(data, dict) else None


def orcid_id(value: Any) -> str | None:
    """'https://orcid.org/0000-0002-1825-0097' -> '0000-0002-1825-0097'."""
    return value.rsplit("/", 1)[-1] if isinstance(value, str) else None


def pdf_urls(locations: Iterable[Any], key: str) -> list[str]:
    """The distinct ``key`` URLs of the open-access location objects, in their order (the
    APIs list the best location first)."""
    urls: list[str] = []
    for loc in locations:
        if isinstance(loc, dict) and loc.get(key) and loc[key] not in urls:
            urls.append(str(loc[key]))
    return urls
