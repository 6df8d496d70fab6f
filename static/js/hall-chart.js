// A bar chart of the hall's rolls against what fair dice give, as the hall screens draw it: the
// same drawing as hall.js's `chart` (its classes are styled by hall.css), in a module of its own
// so another hall screen draws the same chart without a copy of hall.js.

const SVG = "http://www.w3.org/2000/svg";

// svg("rect", {x: 1}, child): an SVG element with attributes and children.
export const svg = (tag, attrs = {}, ...children) => {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) element.setAttribute(key, String(value));
  element.append(...children);
  return element;
};

// value -> how often it occurs in `values`.
export function tally(values) {
  const counts = new Map();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

// What a total of two fair dice comes up in a roll: 1/36 for 2, 6/36 for 7.
export const twoDiceChance = (sum) => (6 - Math.abs(sum - 7)) / 36;

// One bar chart, BAR units a bar, its numbers 24 units high; `top` the count at the chart's
// top (the default: the highest bar or what fair dice give, whichever is more). `words(n,
// counts)` says the chart in words for a screen reader; `title` (optional) is shown above it.
const BAR = 40;
const AXIS = 30; // the axis' numbers below the bars, and room for a count above the highest
export function chart({ kind, id, title = "", values, low, high, chance, words, top = null, height = 240 }) {
  const counts = tally(values);
  const expected = (value) => values.length * chance(value);
  let highest = top;
  if (highest === null) {
    highest = 1;
    for (let value = low; value <= high; value += 1) {
      highest = Math.max(highest, counts.get(value) ?? 0, expected(value));
    }
  }
  const y = (value) => height - AXIS - (value / highest) * (height - 2 * AXIS);
  const parts = [];
  const curve = [];
  for (let value = low; value <= high; value += 1) {
    const x = (value - low) * BAR;
    const count = counts.get(value) ?? 0;
    parts.push(svg("rect", { x: x + 4, y: y(count), width: BAR - 8, height: height - AXIS - y(count), class: "bar" }));
    parts.push(svg("text", { x: x + BAR / 2, y: height - 5, class: "axis" }, String(value)));
    if (count) parts.push(svg("text", { x: x + BAR / 2, y: y(count) - 5, class: "count" }, String(count)));
    curve.push(`${x + BAR / 2},${y(expected(value))}`);
  }
  if (values.length) parts.push(svg("polyline", { points: curve.join(" "), class: "expected" }));
  const bars = high - low + 1;
  const description = Array.from({ length: bars }, (_, i) => `${low + i}: ${counts.get(low + i) ?? 0}`).join(", ");
  const box = document.createElement("div");
  box.className = `chart ${kind}`;
  const labelled = [`${id}-desc`];
  if (title) {
    const name = document.createElement("p");
    name.className = "chart-title";
    name.id = `${id}-name`;
    name.textContent = title;
    box.append(name);
    labelled.unshift(`${id}-name`);
  }
  box.append(svg("svg", { viewBox: `0 0 ${bars * BAR} ${height}`, role: "img", "aria-labelledby": labelled.join(" ") },
    svg("desc", { id: `${id}-desc` }, words(values.length, description)),
    ...parts));
  return box;
}
