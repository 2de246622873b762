import test from 'ava';
import { porterStem } from './stemmer';

// Pairs from Porter's paper and the reference vocabulary.
const CASES: Array<[string, string]> = [
  ['caresses', 'caress'], ['ponies', 'poni'], ['ties', 'ti'], ['caress', 'caress'], ['cats', 'cat'],
  ['feed', 'feed'], ['agreed', 'agre'], ['plastered', 'plaster'], ['bled', 'bled'], ['motoring', 'motor'],
  ['sing', 'sing'], ['conflated', 'conflat'], ['troubled', 'troubl'], ['sized', 'size'], ['hopping', 'hop'],
  ['tanned', 'tan'], ['falling', 'fall'], ['hissing', 'hiss'], ['fizzed', 'fizz'], ['failing', 'fail'],
  ['filing', 'file'], ['happy', 'happi'], ['sky', 'sky'], ['relational', 'relat'], ['conditional', 'condit'],
  ['rational', 'ration'], ['valenci', 'valenc'], ['digitizer', 'digit'], ['conformabli', 'conform'],
  ['radicalli', 'radic'], ['differentli', 'differ'], ['vileli', 'vile'], ['analogousli', 'analog'],
  ['vietnamization', 'vietnam'], ['predication', 'predic'], ['operator', 'oper'], ['feudalism', 'feudal'],
  ['decisiveness', 'decis'], ['hopefulness', 'hope'], ['callousness', 'callous'], ['formaliti', 'formal'],
  ['sensitiviti', 'sensit'], ['sensibiliti', 'sensibl'], ['triplicate', 'triplic'], ['formative', 'form'],
  ['formalize', 'formal'], ['electriciti', 'electr'], ['electrical', 'electr'], ['hopeful', 'hope'],
  ['goodness', 'good'], ['revival', 'reviv'], ['allowance', 'allow'], ['inference', 'infer'],
  ['airliner', 'airlin'], ['gyroscopic', 'gyroscop'], ['adjustable', 'adjust'], ['defensible', 'defens'],
  ['irritant', 'irrit'], ['replacement', 'replac'], ['adjustment', 'adjust'], ['dependent', 'depend'],
  ['adoption', 'adopt'], ['homologou', 'homolog'], ['communism', 'commun'], ['activate', 'activ'],
  ['angulariti', 'angular'], ['homologous', 'homolog'], ['effective', 'effect'], ['bowdlerize', 'bowdler'],
  ['probate', 'probat'], ['rate', 'rate'], ['cease', 'ceas'], ['controll', 'control'], ['roll', 'roll'],
  ['generalization', 'gener'], ['oscillators', 'oscil'],
  // Words of our domain.
  ['cookies', 'cooki'], ['running', 'run'], ['configuration', 'configur'], ['configured', 'configur'],
  ['middleware', 'middlewar'], ['middlewares', 'middlewar'], ['requests', 'request'], ['headers', 'header'],
  ['validation', 'valid'], ['validate', 'valid'], ['timeouts', 'timeout'], ['proxies', 'proxi'],
];

test('porterStem matches the reference outputs', (t) => {
  for (const [word, expected] of CASES) t.is(porterStem(word), expected, word);
});

test('porterStem keeps short words and non-ASCII-lowercase input', (t) => {
  t.is(porterStem('is'), 'is');
  t.is(porterStem('as'), 'as');
  t.is(porterStem('café'), 'café');
  t.is(porterStem('http2'), 'http2');
  t.is(porterStem('Running'), 'Running');
});
