/*
 * The Chinese edition's query splitter (tcdoc_site/_search.py puts it in language_data.js).
 *
 * Sphinx splits the Chinese pages into words with jieba, but a typed query only at spaces and
 * punctuation, so "detach和clone的区别" was one word that no page has. This splits each run of
 * Chinese characters as the index did: the longest word, from the left, that the index holds
 * (or the site's term table names), so it finds the words jieba kept. It then reads an alias as
 * its term (叶子节点 as 叶子张量; the index holds a page that says 叶子节点 under 叶子张量 too),
 * drops the words of a question ("什么", "区别", and "Pytorch张量", what every page is about)
 * and single characters no page is indexed under,
 * and leaves the rest of the query (Latin words, numbers) as Sphinx splits it. A run that no
 * indexed word covers is kept whole: Sphinx matches it inside longer words when it has three
 * characters or more, and a two-character one is read as the shortest indexed word holding it.
 */
const TCDOC_SEARCH = /*TCDOC_SEARCH_DATA*/;

var splitQuery = (query) => {
  tcdocFindAllButOne(); // here, since Sphinx may search before the page has loaded
  const index = (typeof Search !== "undefined" && Search._index) || {};
  const terms = index.terms || {};
  const titles = index.titleterms || {};
  const aliases = TCDOC_SEARCH.aliases;
  const questionWords = new Set(TCDOC_SEARCH.questionWords);
  const siteWords = new Set(TCDOC_SEARCH.words);
  const has = (object, word) => Object.prototype.hasOwnProperty.call(object, word);
  const known = (word) =>
    has(terms, word) || has(titles, word) || has(aliases, word) || questionWords.has(word)
    || siteWords.has(word);
  const longest = TCDOC_SEARCH.longest;

  const holding = (part) => {
    // The shortest indexed word that contains a part no word covers, if any.
    let best = null;
    for (const word of [...Object.keys(terms), ...Object.keys(titles)]) {
      if (word.includes(part) && (best === null || word.length < best.length)) best = word;
    }
    return best;
  };

  const segment = (run) => {
    const found = [];
    let unknown = "";
    const flush = () => {
      if (unknown.length === 1) found.push({ word: unknown, known: false });
      else if (unknown.length === 2) found.push({ word: holding(unknown) || unknown, known: false });
      else if (unknown.length > 2) found.push({ word: unknown, known: false });
      unknown = "";
    };
    let at = 0;
    while (at < run.length) {
      let size = Math.min(longest, run.length - at);
      while (size > 1 && !known(run.substr(at, size))) size -= 1;
      if (size > 1) {
        flush();
        found.push({ word: run.substr(at, size), known: true });
        at += size;
      } else {
        unknown += run[at];
        at += 1;
      }
    }
    flush();
    return found;
  };

  const pieces = [];
  for (const chunk of query.split(/[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/gu)) {
    for (const run of chunk.match(/\p{Script=Han}+|\P{Script=Han}+/gu) || []) {
      if (/\p{Script=Han}/u.test(run)) pieces.push(...segment(run));
      else pieces.push({ word: run, known: true });
    }
  }
  const all = pieces.map((piece) => ({ ...piece, word: has(aliases, piece.word) ? aliases[piece.word] : piece.word }));
  // Single characters no word took (的, 和, 中) and the words of a question, unless nothing else is left.
  const kept = all.filter((piece) => !questionWords.has(piece.word.toLowerCase()) && (piece.known || piece.word.length > 1));
  return [...new Set((kept.length ? kept : all).map((piece) => piece.word))];
};

/*
 * A question of three words or more ("detach，clone和deepcopy有什么区别") also finds the pages
 * that hold all of its words but one: Sphinx asks for every word, and a page about clone() need
 * not name deepcopy. Each such page loses what one word of its text scores, so the pages that
 * hold every word come first, but a page whose title names one of the words still comes early.
 */
function tcdocFindAllButOne() {
  if (typeof Search === "undefined" || Search.tcdocAllButOne) return;
  const everyWord = Search.performTermsSearch;
  Search.performTermsSearch = (searchTerms, excludedTerms) => {
    const results = everyWord(searchTerms, excludedTerms);
    if (searchTerms.size < 3) return results;
    const found = new Set(results.map((result) => result[0]));
    for (const left of searchTerms) {
      const fewer = new Set([...searchTerms].filter((word) => word !== left));
      for (const result of everyWord(fewer, excludedTerms)) {
        if (found.has(result[0])) continue;
        found.add(result[0]);
        results.push([...result.slice(0, 4), result[4] - Scorer.term, ...result.slice(5)]);
      }
    }
    return results;
  };
  Search.tcdocAllButOne = true;
}
