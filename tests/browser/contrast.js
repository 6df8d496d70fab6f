// WCAG 2 contrast of every visible piece of text against the colour behind it (backgrounds
// blended from the page down, alpha and `opacity` included): 4.5:1, or 3:1 for large text (24 px,
// or 18.66 px bold). Returns a line per piece of text that falls short. Evaluated by Playwright.
// An element's opacity fades its text and background into what lies behind it: the phone's
// landmark list (opacity 0.65, #7d8085 on white) passed while opacity was left out.
() => {
  const parse = (c) => {
    const m = c.match(/[\d.]+/g) || [0, 0, 0, 0];
    return [+m[0], +m[1], +m[2], m.length > 3 ? +m[3] : 1];
  };
  const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
  const channel = (v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const lum = (c) => 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
  // The colour behind the node's text, and the opacity the node and its ancestors give it.
  const background = (node) => {
    const chain = [];
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) chain.unshift(n);
    let colour = [255, 255, 255, 1];
    let opacity = 1;
    for (const n of chain) {
      const style = getComputedStyle(n);
      opacity *= +style.opacity;
      const fill = parse(style.backgroundColor);
      colour = over([fill[0], fill[1], fill[2], fill[3] * opacity], colour);
    }
    return [colour, opacity];
  };
  const problems = [];
  for (const node of document.querySelectorAll("body *")) {
    const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!own || !node.getClientRects().length) continue;
    if (node.closest("[hidden], template, option, :disabled")) continue;
    const style = getComputedStyle(node);
    if (style.visibility !== "visible" || +style.opacity === 0) continue;
    const [back, opacity] = background(node);
    const text = parse(style.color);
    const fore = over([text[0], text[1], text[2], text[3] * opacity], back);
    const [hi, lo] = [lum(fore), lum(back)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (+style.fontWeight >= 700 && size >= 18.66);
    if (ratio < (large ? 3 : 4.5)) {
      const text = node.textContent.trim().slice(0, 30);
      problems.push(`${node.tagName}.${node.className} "${text}" ${ratio.toFixed(2)}`);
    }
  }
  return problems;
}
