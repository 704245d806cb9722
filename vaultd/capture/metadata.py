"""Ask every source about one paper, concurrently, and collect what answered.

A source that is down, or answers in a shape its parser does not know, is not fatal: it
is named in ``missing`` (one line each) and the capture goes on with the others.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass, field

from vaultd.capture import arxiv, crossref, openalex, unpaywall
from vaultd.capture.http import Fetcher
from vaultd.config import CaptureSettings
from vaultd.errors import FetchError
from vaultd.models import Work

log = logging.getLogger(__name__)


@dataclass
class Gathered:
    works: list[Work] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    pdf_urls: list[str] = field(default_factory=list)

    @property
    def answered(self) -> list[str]:
        return [s for w in self.works for s in w.sources]


def unpaywall_email(cfg: CaptureSettings) -> str | None:
    return cfg.unpaywall_email or cfg.email


async def _guard(name: str, coro: Awaitable[Work | None], out: Gathered) -> Work | None:
    try:
        work = await coro
    except FetchError as exc:
        out.missing.append(f"{name} unavailable: {str(exc).removeprefix(name + ' ')}")
        return None
    except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
        # An answer shaped unlike what the parser knows: that source is skipped, the
        # capture goes on with the others.
        what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        log.warning("%s answer could not be read", name, exc_info=True)
        out.missing.append(f"{name} answered in an unexpected shape ({what}); "
                           "its metadata was skipped")
        return None
    if work is not None:
        out.works.append(work)
    return work


async def gather(fetcher: Fetcher, cfg: CaptureSettings, *, arxiv_id: str | None = None,
                 doi: str | None = None, arxiv_version: int | None = None) -> Gathered:
    """Every source's partial Work for the paper named by ``arxiv_id`` and/or ``doi``."""
    out = Gathered()
    arxiv_work: Work | None = None
    if arxiv_id:
        arxiv_work = await _guard("arxiv", arxiv.fetch(fetcher, cfg.arxiv_api_url, arxiv_id), out)
        # The version the user named, else the latest one the API reports.
        version = arxiv_version or (arxiv_work.arxiv_version if arxiv_work else None)
        out.pdf_urls.append(arxiv.pdf_url(cfg.arxiv_pdf_url, arxiv_id, version))
        if not doi and arxiv_work is not None and arxiv_work.doi_published:
            doi = arxiv_work.doi_published
    tasks: list[Awaitable[Work | None]] = []
    if doi:
        tasks.append(_guard("crossref", crossref.fetch(fetcher, cfg.crossref_url, doi), out))
    oa_doi = doi or (openalex.arxiv_doi(arxiv_id) if arxiv_id else None)
    oa_pdfs: list[str] = []
    if oa_doi:
        async def openalex_work(doi: str) -> Work | None:
            work, urls = await openalex.fetch_with_pdfs(fetcher, cfg.openalex_url, doi)
            oa_pdfs.extend(urls)
            return work
        tasks.append(_guard("openalex", openalex_work(oa_doi), out))
    email = unpaywall_email(cfg)
    if doi and email:
        tasks.append(_guard("unpaywall",
                            unpaywall.fetch(fetcher, cfg.unpaywall_url, doi, email), out))
    elif doi:
        out.notices.append("unpaywall skipped: no email configured (set capture.email or "
                           "VAULTD_UNPAYWALL_EMAIL)")
    await asyncio.gather(*tasks)
    # PDF order: arXiv, Unpaywall's best OA location, then every OpenAlex OA location.
    upw = [w.pdf_url for w in out.works if "unpaywall" in w.sources and w.pdf_url]
    for url in [*upw, *oa_pdfs]:
        if url not in out.pdf_urls:
            out.pdf_urls.append(url)
    return out
