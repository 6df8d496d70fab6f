"""What the evening replays (test_evening_*.py) do in the console as the organizer does it:
open a table's card from the overview, read a seat's join link from it (the QR card's), start a
Legacy campaign from its form."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect


def card_of(page: Page, name: str) -> Locator:
    """A table's card in the console, opened from its row in the overview."""
    exact = re.compile(f"^{re.escape(name)}$")
    opener = page.locator("#overview tr", has=page.locator("th", has_text=exact)).locator("button.table-open")
    if opener.get_attribute("aria-expanded") != "true":
        opener.click()
    card = page.locator(".table-card", has=page.locator(".table-name", has_text=exact))
    expect(card).to_be_visible()
    return card


def token_of(card: Locator, seat: int) -> str:
    """A seat's token, from the join link its card shows (/j/TOKEN, the QR card's link)."""
    href = card.locator("a.join-link").nth(seat).get_attribute("href") or ""
    return href.rsplit("/j/", 1)[1]


MID_WORD_BREAKS = """(element) => {
  // Each place where a line ends between two letters (or a letter and its punctuation) with
  // no hyphen offered there.
  const found = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    let top = null;
    for (let i = 0; i < text.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      const rect = rects.at(-1); // a letter after a break may also answer the line before's end
      if (!rect) continue;
      if (top !== null && rect.top > top + 2 && /[\\p{L}!?.,:;)]/u.test(text[i])
          && /\\p{L}/u.test(text[i - 1] ?? "")) found.push(text.slice(Math.max(0, i - 8), i + 8));
      top = rect.top;
    }
  }
  return found;
}"""


def mid_word_breaks(locator: Locator) -> list[str]:
    """The words the elements' text breaks inside, across lines, without a hyphen."""
    return [word for element in locator.all() for word in element.evaluate(MID_WORD_BREAKS)]


def create_campaign(page: Page, name: str, cards: str, group: list[tuple[str, str]],
                    file: str | None = None) -> None:
    """A new Legacy campaign from the console's form: its name, each mayor and city of `group`,
    its starting cards (`base` or `file`, with the card-list file `file`)."""
    page.locator("#legacy-new summary").click()
    form = page.locator("#legacy-create-form")
    form.locator("#legacy-name").fill(name)
    for seat, (player, city) in enumerate(group):
        form.locator(f"[name=mayor-name-{seat}]").fill(player)
        form.locator(f"[name=mayor-city-{seat}]").fill(city)
    form.locator(f"input[name=cards][value={cards}]").check()
    if file:
        form.locator("input[name=card-file]").set_input_files(file)
    form.locator("button[type=submit]").click()
