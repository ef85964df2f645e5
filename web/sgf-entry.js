// The page's SGF reader: Sabaki's (npm @sabaki/sgf), bundled by
// web/build.sh into web/sgf.js. Its optional encoding detectors
// (iconv-lite, jschardet) are left out: the page reads text the browser
// has already decoded.
export { parse, parseCompressedVertices, parseVertex } from "@sabaki/sgf";
