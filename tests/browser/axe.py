"""axe-core, the standard accessibility checker, on a Playwright page (issue 16, item 14).

`axe_violations(page)` runs the axe-core that the `axe-playwright-python` package ships (no
download, no CDN: the script is injected from the wheel) with its default rules, WCAG 2.x A and
AA and best practices, and answers the violations; `axe_report(violations)` says them in a few
lines for an assertion message:

    violations = axe_violations(page)
    assert not violations, axe_report(violations)
"""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

_AXE = Axe()


def axe_violations(page: Page, context: str | None = None) -> list[dict[str, Any]]:
    """The axe-core violations of the page as it stands (or of the part `context`, a CSS
    selector): each a dict with its rule `id`, `impact`, `help`, `helpUrl` and `nodes`."""
    results = _AXE.run(page, context=context)
    violations: list[dict[str, Any]] = results.response["violations"]
    return violations


def axe_report(violations: list[dict[str, Any]], nodes: int = 3) -> str:
    """The violations in words: a line per rule, then its first `nodes` elements."""
    lines = [f"{len(violations)} axe-core violations:"]
    for violation in violations:
        lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:nodes]:
            lines.append(f"    {', '.join(map(str, node['target']))}: {node.get('failureSummary', '')}"
                         .replace("\n", " "))
    return "\n".join(lines)
