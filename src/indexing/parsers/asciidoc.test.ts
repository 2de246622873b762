import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import type { ParsedSnippet } from '../types';
import { splitAsciidocIntoSnippets } from './asciidoc';
import { fencedBlocks, proseOf } from '../../search/format/fence';

/** A guide written for these tests, with what real AsciiDoc documentation uses. */
const FIXTURE = fileURLToPath(new URL('../../../fixtures/parsers/widgets-guide.adoc', import.meta.url));

const adoc = (text: string, file = 'docs/guide.adoc') => splitAsciidocIntoSnippets({ path: file, text });
const codes = (out: ParsedSnippet[]) => out.filter((s) => s.kind === 'code');
const infos = (out: ParsedSnippet[]) => out.filter((s) => s.kind === 'info');
/** Every code example of the snippets, in order, as their Markdown holds it. */
const examples = (out: ParsedSnippet[]) => out.flatMap((s) => fencedBlocks(s.content));
/** The snippets' prose without their examples. */
const prose = (out: ParsedSnippet[]) => out.map((s) => proseOf(s.content)).join('\n\n');

const GUIDE = `= Jetty Guide
:toc: left
:icons: font
:source-highlighter: rouge

The link:https://jetty.org/[Eclipse Jetty] project provides an HTTP server and client.

// a comment that is not documentation
== Quick Setup

Jetty expands into a directory called \`$JETTY_HOME\`, see <<configuring,the configuration section>>.

.Starting the server
[source,bash]
----
$ java -jar $JETTY_HOME/start.jar
----

NOTE: The server can be stopped with kbd:[Ctrl+C] in the terminal window.

[[configuring]]
=== Configuring

Settings live in *start.d* files:

....
jetty.http.port=8080
....

[source, Java, linenums]
Server server = new Server(8080);

////
Commented-out block
////

[NOTE]
====
Example blocks keep their text, like this note about the \`+*.war+\` files.
====
`;

test('= titles build the breadcrumb, the level-0 title is the page title', (t) => {
  const out = adoc(GUIDE);
  t.true(out.every((s) => s.pageTitle === 'Jetty Guide'));
  t.deepEqual(
    out.map((c) => [c.kind, c.breadcrumb.join(' > '), c.startLine]),
    [
      ['info', 'Jetty Guide', 1],
      ['code', 'Jetty Guide > Quick Setup', 9],
      ['code', 'Jetty Guide > Quick Setup > Configuring', 22],
    ],
  );
});

test('[source,lang] listings, literal blocks and undelimited source paragraphs are code', (t) => {
  const out = codes(adoc(GUIDE));
  t.deepEqual(examples(out), [
    { language: 'bash', code: '$ java -jar $JETTY_HOME/start.jar' },
    { language: '', code: 'jetty.http.port=8080' },
    { language: 'java', code: 'Server server = new Server(8080);' },
  ]);
  t.deepEqual(
    out.map((c) => [c.language, c.code]),
    [
      ['bash', '$ java -jar $JETTY_HOME/start.jar'],
      ['', 'jetty.http.port=8080\n\nServer server = new Server(8080);'],
    ],
  );
  // The block title names the listing, so it is the last thing before the code.
  t.is(out[0].description, 'Jetty expands into a directory called `$JETTY_HOME`, see the configuration section.\n\nStarting the server');
  t.is(out[1].description, 'Settings live in start.d files:');
});

test('attributes, comments and delimiters are removed; admonitions and links become text', (t) => {
  const out = adoc(GUIDE);
  t.false(out.some((s) => /:toc:|:icons:|comment|Commented|====|\[\[|link:/.test(s.content)));
  const text = prose(out);
  t.true(text.includes('The Eclipse Jetty project provides an HTTP server and client.'));
  t.true(text.includes('see the configuration section.'));
  t.true(text.includes('Note: The server can be stopped with Ctrl+C in the terminal window.'));
  t.true(text.includes('Example blocks keep their text, like this note about the `*.war` files.'));
  // The admonition after a listing follows it in the same snippet.
  t.true(out[1].content.endsWith('```\n\nNote: The server can be stopped with Ctrl+C in the terminal window.'));
});

test('weird input never throws', (t) => {
  for (const text of ['', '=', '----', '[source]', '....\nunclosed', '= ', '[source,python]\n', '<<'.repeat(10000)])
    t.notThrows(() => adoc(text), text.slice(0, 20));
});

test('a whole guide (fixtures/parsers/widgets-guide.adoc): attributes, sections, languages, callouts, tables, admonitions', (t) => {
  const text = fs.readFileSync(FIXTURE, 'utf8');
  const lines = text.split('\n');
  const out = adoc(text);
  t.deepEqual(
    out.map((s) => s.title),
    ['Widgets Server Guide', 'Installing Widgets Server', 'Starting the server', 'Configuring', 'Logging', 'Upgrading from 1.x'],
  );
  for (const s of out) {
    t.is(s.pageTitle, 'Widgets Server Guide');
    t.is(s.breadcrumb[0], s.pageTitle);
    t.is(s.breadcrumb.at(-1), s.title);
    // Each section's snippet starts at its own heading (the page's at line 1).
    if (s.title !== s.pageTitle) t.regex(lines[s.startLine - 1], new RegExp(`^=+ ${s.title.split(' ')[0]}`), s.title);
  }
  t.deepEqual(out.find((s) => s.title === 'Starting the server')?.breadcrumb, ['Widgets Server Guide', 'Installing Widgets Server', 'Starting the server']);
  const all = out.map((s) => s.content).join('\n');
  t.regex(all, /Widgets Server serves widgets over HTTP\. This guide covers version 2\.1/, 'attributes substituted');
  t.notRegex(all, /\{(product|version|url-repo)\}/);
  t.notRegex(all, /comment/i, 'comments and comment blocks left out');
  t.deepEqual(
    examples(out).map((e) => e.language),
    ['shell', 'java', 'properties', '', 'diff'],
    ':source-language: gives the bare [source] its language',
  );
  const start = out.find((s) => s.title === 'Starting the server')!;
  t.is(start.code, 'WidgetServer server = new WidgetServer(8080);\nserver.start();', 'callout markers leave the code');
  t.regex(prose([start]), /\(1\) The port to listen on\.\n\(2\) Returns once the server accepts connections\./);
  t.regex(prose(out), /`widgets\.port` \| `8080` \| The HTTP port\./, 'table rows as text');
  t.regex(prose(out), /Note: The server needs Java 17 or later\./);
  t.regex(prose(out), /Warning: A port below 1024 needs extra privileges\./);
});

test('attribute entries are substituted in prose and titles; [,lang] and :source-language: give languages', (t) => {
  const doc = [
    '= {product} Guide',
    ':product: Acme PDF',
    ':source-language: ruby',
    '',
    '== Installing {product}',
    '',
    'Install {product} with the gem command, then check {unknown} and C{pp} and \\{product}.',
    '',
    '[,yaml]',
    '----',
    'page:',
    '  size: A4',
    '----',
    '',
    '[source]',
    '----',
    "require 'acme/pdf'",
    '----',
    '',
    '[source,subs=attributes+]',
    '----',
    'puts 1',
    '----',
    '',
    ':product!:',
    'After the unset {product} stays.',
  ].join('\n');
  const out = splitAsciidocIntoSnippets({ path: 'docs/guide.adoc', text: doc });
  t.deepEqual(
    examples(out).map((c) => c.language),
    ['yaml', 'ruby', 'ruby'],
  );
  t.is(out[0].language, 'yaml', "the snippet's language is its first example's");
  const info = prose(out);
  t.true(info.includes('Install Acme PDF with the gem command, then check {unknown} and C++ and {product}.'), info);
  t.true(info.includes('After the unset {product} stays.'));
  t.true(out.some((s) => s.title === 'Installing Acme PDF'));
});

test('the document header (author, revision, attributes) is not content; roles and anchors leave prose', (t) => {
  const out = adoc(
    [
      '[[spring-data-commons-reference-documentation]]',
      '= Spring Data Commons',
      'Oliver Gierke <ogierke@example.com>; Mark Paluch',
      'v3.2.0, 2024-01-02: Release',
      ':revnumber: 3.2.0',
      ':toc: left',
      '',
      '[[introduction]]',
      '== [[intro]]Introduction',
      '',
      'The [.underline]#repository# abstraction is [role=lead]*central* and [.term]_generic_; see anchor:x[] the [[inline-anchor]]{javadoc-base}/org/Repository.html[reference] for more details on it.',
    ].join('\n'),
  );
  const all = out.map((s) => `${s.title} ${s.content} ${s.description}`).join('\n');
  t.false(all.includes('Gierke'), all);
  t.false(all.includes('v3.2.0'));
  t.false(all.includes('[['));
  t.false(/\[\.|\[role=|anchor:/.test(all), all);
  const info = infos(out)[0];
  t.is(info.title, 'Introduction');
  t.is(info.content, 'The repository abstraction is central and generic; see the reference for more details on it.');
});

test('definition lists read as term: definition; [NOTE] blocks keep their label', (t) => {
  const out = adoc(
    [
      '= Options',
      '',
      '== Settings',
      '',
      'timeout:: How long a request may take before it is aborted.',
      'retries::',
      '  How often a failed request is sent again.',
      'CPU;; The processor the job runs on.',
      '',
      '[NOTE]',
      '====',
      'Settings are read once at start-up, so a change needs a restart of the service.',
      '====',
      '',
      'WARNING: Never share the key with anyone.',
    ].join('\n'),
  );
  const content = infos(out)
    .map((s) => s.content)
    .join('\n\n');
  t.true(
    content.includes(
      'timeout: How long a request may take before it is aborted.\nretries: How often a failed request is sent again.\nCPU: The processor the job runs on.',
    ),
    content,
  );
  t.true(content.includes('Note: Settings are read once at start-up'), content);
  t.true(content.includes('Warning: Never share the key'), content);
  t.false(content.includes('::'));
});

test('tables become readable rows; callout markers leave the code and the explanations stay', (t) => {
  const out = adoc(
    [
      '= Reference',
      '',
      '== Keywords',
      '',
      'Supported keywords for query methods:',
      '',
      '[cols="1,2,2", options="header"]',
      '|===',
      '|Keyword |Sample |JPQL snippet',
      '',
      '|`And`',
      '|`findByLastnameAndFirstname`',
      '|`… where x.lastname = ?1 and x.firstname = ?2`',
      '',
      'a|`Or` |`findByLastnameOrFirstname` |`… where x.lastname = ?1 or x.firstname = ?2`',
      '|===',
      '',
      'Declaring a repository:',
      '',
      '[source,java]',
      '----',
      'interface PersonRepository extends Repository<Person, Long> { // <1>',
      '  List<Person> findByLastname(String lastname); <2>',
      '}',
      '----',
      '<1> The repository interface extends the marker interface.',
      '<2> A query method derived from its name.',
    ].join('\n'),
  );
  const content = prose(out);
  t.true(
    content.includes(
      'Keyword | Sample | JPQL snippet\n`And` | `findByLastnameAndFirstname` | `… where x.lastname = ?1 and x.firstname = ?2`\n`Or` | `findByLastnameOrFirstname` | `… where x.lastname = ?1 or x.firstname = ?2`',
    ),
    content,
  );
  t.false(content.includes('|==='));
  const code = codes(out)[0];
  t.is(code.code, 'interface PersonRepository extends Repository<Person, Long> {\n  List<Person> findByLastname(String lastname);\n}');
  // The explanations of the callouts follow the code they explain.
  t.true(
    code.content.endsWith('}\n```\n\n(1) The repository interface extends the marker interface.\n(2) A query method derived from its name.'),
    code.content,
  );
});
