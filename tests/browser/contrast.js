// WCAG 2 contrast of every visible piece of text against the colour behind it (backgrounds
// blended from the page down, alpha included): 4.5:1, or 3:1 for large text (24 px, or 18.66 px
// bold). Returns a line per piece of text that falls short. Evaluated by Playwright.
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
  const background = (node) => {
    const chain = [];
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) chain.unshift(n);
    let colour = [255, 255, 255, 1];
    for (const n of chain) colour = over(parse(getComputedStyle(n).backgroundColor), colour);
    return colour;
  };
  const problems = [];
  for (const node of document.querySelectorAll("body *")) {
    const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!own || !node.getClientRects().length) continue;
    if (node.closest("[hidden], template, option, :disabled")) continue;
    const style = getComputedStyle(node);
    if (style.visibility !== "visible" || +style.opacity === 0) continue;
    const back = background(node);
    const fore = over(parse(style.color), back);
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
