// Makes lzstring_vectors.json with the reference LZ-string (npm lz-string
// 1.5.0, pieroxy/lz-string): node lzstring_vectors.js PATH/TO/lz-string.js
// (see README.md). Deterministic: a fixed pseudo-random sequence.
const LZ = require(process.argv[2]);
let seed = 47;
function rand(n) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
}
function randomString(len, alphabet) {
  let s = '';
  for (let i = 0; i < len; i++) s += alphabet[rand(alphabet.length)];
  return s;
}
const inputs = [
  '', 'a', 'aa', 'ab', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'abcabcabcabcabcabc',
  'hello, world', 'Hello Wörld: ünïcödé', '数独 sudoku 変種', 'emoji 😀 and 🧩 pieces',
  '\u00ff\u0100\u7fff\uffff', '\u0000nul\u0000',
  '{"size":9,"title":"Test","author":"Me","grid":[[{"value":5,"given":true},{},{}]],"killercage":[{"cells":["R1C1","R1C2"],"value":"10"}]}',
];
const alphabets = ['ab', 'abcdefgh', '{}[]":,RC0123456789', 'abcdefghijklmnopqrstuvwxyzéü数😀 '];
for (let i = 0; i < 40; i++) {
  inputs.push(randomString(1 + rand(i < 30 ? 300 : 5000), Array.from(alphabets[i % alphabets.length])));
}
const vectors = inputs.map(s => ({ input: s, base64: LZ.compressToBase64(s) }));
// Decoding of text the compressor never makes: the reference's null or "".
const odd = ['A', 'AAAA', 'BBBB', '////', 'N4Ig', 'N4IgdghgtgpiBcIDKBLAdgcwAQCED2ALgM4AEALxAHQQYA=='];
const decodes = odd.map(s => ({ base64: s, output: LZ.decompressFromBase64(s) }));
console.log(JSON.stringify({ generator: 'lz-string 1.5.0 under node ' + process.version, vectors, decodes }, null, 1));
