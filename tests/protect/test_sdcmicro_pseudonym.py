"""Pseudonyms vs R's openssl HMAC-SHA-256 (``openssl::sha256(x, key =)``), cell for cell
(marker ``sdcmicro``: it runs through the R bridge)."""

from __future__ import annotations

import pytest

from validation.crossval_protect import pseudonym_diffs

pytestmark = pytest.mark.sdcmicro


def test_100_random_cases():
    diffs = pseudonym_diffs(100)
    bad = [d.explain() for d in diffs if not d.agree]
    assert not bad, "\n".join(bad[:20])
    assert len(diffs) == 100 and sum(d.n_values for d in diffs) > 1000
