// Stands in for Node's fs in the bundled SGF reader (web/build.sh): the page reads
// files through the browser, never from a path.
export default {};
