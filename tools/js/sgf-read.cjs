// Read an SGF file with Sabaki's own parser (@sabaki/sgf) and print, as
// JSON, what Sabaki sees: the root node's properties and the main line's
// moves. kosumi's tests run it on what `printsgf` writes.
//
// Usage: node tools/js/sgf-read.cjs FILE
'use strict';
const fs = require('fs');
const sgf = require('@sabaki/sgf');

const file = process.argv[2];
if (!file) {
  console.error('usage: node sgf-read.cjs FILE');
  process.exit(2);
}
const roots = sgf.parse(fs.readFileSync(file, 'utf8'));
if (roots.length === 0) {
  console.error('no game tree');
  process.exit(1);
}
const root = roots[0];
const moves = [];
for (let node = root; node; node = node.children[0]) {
  for (const color of ['B', 'W']) {
    if (node.data[color]) moves.push([color, node.data[color][0]]);
  }
}
console.log(JSON.stringify({ trees: roots.length, root: root.data, moves }));
