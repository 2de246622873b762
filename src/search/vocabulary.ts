/**
 * The word lists of the analysis: English stop words and a small table of programming
 * synonyms for query expansion. General on purpose: nothing here names a library or a
 * question of the evaluation set.
 */

/**
 * Words that carry no topic. Function words and question scaffolding ("how do I", "what
 * is"); contractions appear without their apostrophe because the tokenizer drops it.
 * Kept on purpose although common: `not`, `new`, `get`, `set`, `use`, `return`, `after`,
 * `before`, `all`, `no`, `default`, `type` — each names an API, an option or a keyword.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'and', 'or', 'but', 'nor', 'so', 'yet', 'of', 'to', 'in', 'on', 'at', 'by',
  'for', 'with', 'from', 'into', 'onto', 'about', 'as', 'than', 'then', 'also', 'too', 'very',
  'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'do', 'does', 'did', 'doing', 'done',
  'have', 'has', 'had', 'having', 'can', 'could', 'should', 'would', 'will', 'shall', 'may',
  'might', 'must', 'i', 'me', 'my', 'mine', 'myself', 'we', 'us', 'our', 'ours', 'you', 'your',
  'yours', 'he', 'him', 'his', 'she', 'her', 'it', 'its', 'they', 'them', 'their', 'theirs',
  'this', 'that', 'these', 'those', 'there', 'here', 'what', 'which', 'who', 'whom', 'whose',
  'why', 'how', 'when', 'where', 'whether', 'if', 'any', 'some', 'such', 'each', 'every',
  'just', 'only', 'even', 'still', 'again', 'own', 'same', 'other', 'another', 'via', 'per',
  'e', 'g', 'eg', 'ie', 'etc', 'im', 'ive', 'ill', 'youre', 'dont', 'doesnt', 'didnt',
  'isnt', 'arent', 'wasnt', 'werent', 'cant', 'cannot', 'couldnt', 'shouldnt', 'wouldnt',
  'wont', 'havent', 'hasnt', 'hadnt', 'lets', 'thats', 'whats', 'theres', 'vs', 'versus',
  'want', 'wants', 'need', 'needs', 'way', 'ways', 'please', 'thing', 'things', 'something',
  'anything', 'instead', 'though', 'although', 'because', 'while', 'both', 'either', 'neither',
  'much', 'many', 'more', 'most', 'really', 'actually', 'anymore', 'now', 'currently',
]);

/**
 * Groups of interchangeable words (unstemmed; the analysis stems them). A query term in a
 * group brings the other members in as expansions, which the query builder weights low.
 */
export const SYNONYM_GROUPS: ReadonlyArray<readonly string[]> = [
  ['delete', 'remove', 'destroy', 'unset'],
  ['create', 'add', 'new', 'insert'],
  ['error', 'exception'],
  ['throw', 'raise'],
  ['config', 'configuration', 'configure', 'options', 'option'],
  ['auth', 'authentication', 'authenticate'],
  ['async', 'await', 'asynchronous'],
  ['cancel', 'abort'],
  ['update', 'modify', 'edit'],
  ['fetch', 'retrieve'],
  ['install', 'installation', 'setup'],
  ['validate', 'validation', 'verify'],
  ['url', 'uri'],
  ['function', 'func', 'fn'],
  ['parameter', 'param', 'argument', 'arg'],
  ['directory', 'folder', 'dir'],
  ['env', 'environment'],
  ['db', 'database'],
  ['repo', 'repository'],
  ['request', 'req'],
  ['response', 'res'],
  ['js', 'javascript'],
  ['ts', 'typescript'],
  ['py', 'python'],
  ['concurrent', 'concurrency', 'parallel'],
  ['log', 'logger', 'logging'],
  ['upgrade', 'migrate', 'migration'],
  ['performance', 'speed'],
  ['initialize', 'init'],
  ['dict', 'dictionary'],
  ['regex', 'regexp'],
  ['docs', 'documentation'],
  ['app', 'application'],
];
