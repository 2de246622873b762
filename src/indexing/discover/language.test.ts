import test from 'ava';
import { judgeLanguage, proseOf } from './language';

const ENGLISH =
  'Stores hold the state of your application. Use a store when the data is shared by many components, and keep it small: a store that does everything is hard to test.';

test('English prose is English; short texts are not judged', (t) => {
  t.true(judgeLanguage(ENGLISH).english);
  t.true(judgeLanguage('安装').english, 'too little to judge');
});

test('non-Latin scripts are recognised by their share of letters', (t) => {
  const zh = judgeLanguage(
    'Store 是一个保存状态和业务逻辑的实体，它并不与你的组件树绑定。换句话说，它承载着全局状态。它有点像一个永远存在的组件，每个组件都可以读取和写入它。',
  );
  t.false(zh.english);
  t.is(zh.language, 'zh/ja/ko');
  const ru = judgeLanguage('Хранилище содержит состояние и бизнес-логику, которые не привязаны к дереву компонентов вашего приложения.');
  t.is(ru.language, 'cyrillic');
});

test('Latin-script languages are recognised by their function words', (t) => {
  const es = judgeLanguage(
    'Un store es una entidad que contiene el estado y la lógica de negocio que no está vinculada a tu árbol de componentes. En otras palabras, contiene el estado global de la aplicación y se puede usar en todas las páginas.',
  );
  t.deepEqual([es.english, es.language], [false, 'es']);
  const fr = judgeLanguage(
    "Un store est une entité qui contient l'état et la logique métier qui ne sont pas liés à votre arbre de composants. En d'autres termes, il contient l'état global de votre application et vous pouvez le lire dans tous les composants.",
  );
  t.deepEqual([fr.english, fr.language], [false, 'fr']);
  const de = judgeLanguage(
    'Ein Store ist eine Entität, die den Zustand und die Geschäftslogik enthält, die nicht an den Komponentenbaum gebunden sind. Mit anderen Worten, er enthält den globalen Zustand und kann von jeder Komponente gelesen werden, wenn sie es braucht.',
  );
  t.deepEqual([de.english, de.language], [false, 'de']);
});

test('code is left out before judging: an English page with Chinese examples stays English', (t) => {
  const page = `# Segmenting text\n\n${ENGLISH}\n\n\`\`\`js\nsegment('我们都是中国人，我们爱我们的国家和我们的家乡，这是一个很长的例子');\nsegment('今天天气很好，我们去公园散步吧，公园里有很多花和树');\nsegment('我们都是中国人，我们爱我们的国家和我们的家乡，这是一个很长的例子，今天天气很好，我们去公园散步吧，公园里有很多花和树，我们都是中国人');\n\`\`\`\n\nThe result is \`['我们', '都是', '中国人']\`.\n`;
  t.true(judgeLanguage(proseOf(page)).english);
  t.false(judgeLanguage(page).english, 'the same page with its code judged would not be');
});
