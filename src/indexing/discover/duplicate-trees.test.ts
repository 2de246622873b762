import test from 'ava';
import { nearDuplicatePages } from './duplicate-trees';

const CHAPTER = `# Programming a Guessing Game

Let's jump into Rust by working through a hands-on project together! This chapter introduces you to a few common Rust concepts by showing you how to use them in a real program. You'll learn about let, match, methods, associated functions, external crates, and more. In the following chapters, we'll explore these ideas in more detail. In this chapter, you'll just practice the fundamentals.

We'll implement a classic beginner programming problem: a guessing game. Here's how it works: the program will generate a random integer between 1 and 100. It will then prompt the player to enter a guess. After a guess is entered, the program will indicate whether the guess is too low or too high. If the guess is correct, the game will print a congratulatory message and exit.
`;

test('a print copy of a book beside its sources: the source page is kept', (t) => {
  const source = `${CHAPTER}\n\`\`\`rust\n{{#rustdoc_include ../listings/ch02/src/main.rs:all}}\n\`\`\`\n`;
  const print = `${CHAPTER.replace('hands-on', 'hands on')}\n\`\`\`rust\nuse std::io;\n\nfn main() {\n    println!("Guess the number!");\n}\n\`\`\`\n`;
  const dropped = nearDuplicatePages(
    [
      { path: 'nostarch/chapter02.md', text: print },
      { path: 'src/ch02-00-guessing-game-tutorial.md', text: source },
      {
        path: 'src/ch03-00-common-programming-concepts.md',
        text: '# Common Programming Concepts\n\nThis chapter covers concepts that appear in almost every programming language and how they work in Rust. Many programming languages have much in common at their core. None of the concepts presented in this chapter are unique to Rust, but we will discuss them in the context of Rust and explain the conventions around using these concepts.\n',
      },
    ],
    ['book.toml', 'src/SUMMARY.md', 'nostarch/chapter02.md'],
  );
  t.deepEqual([...dropped], [['nostarch/chapter02.md', 'src/ch02-00-guessing-game-tutorial.md']]);
});

test('a docs folder mirrored into a site folder keeps the docs; short and different pages stay', (t) => {
  const dropped = nearDuplicatePages(
    [
      { path: 'docs/guide.md', text: CHAPTER },
      { path: 'website/static/export/guide.md', text: CHAPTER },
      { path: 'docs/index.md', text: '# Welcome\n\nStart here.\n' },
      { path: 'docs/api/index.md', text: '# Welcome\n\nStart here.\n' },
    ],
    ['mkdocs.yml'],
  );
  t.deepEqual([...dropped], [['website/static/export/guide.md', 'docs/guide.md']]);
});

test('pages in the same folder are never copies of each other (versions and variants are decided elsewhere)', (t) => {
  t.is(
    nearDuplicatePages(
      [
        { path: 'docs/a.md', text: CHAPTER },
        { path: 'docs/b.md', text: CHAPTER },
      ],
      [],
    ).size,
    0,
  );
});

test('a print chapter joining several source pages is a copy of them (containment, copy folders only)', (t) => {
  const second =
    '# Common Programming Concepts\n\nThis chapter covers concepts that appear in almost every programming language and how they work in Rust. Many programming languages have much in common at their core. None of the concepts presented in this chapter are unique to Rust, but we will discuss them in the context of Rust and explain the conventions around using these concepts.\n';
  const chapter = `${CHAPTER}\n\n${second}`;
  const pages = [
    { path: 'nostarch/chapter02.md', text: chapter },
    { path: 'src/ch02-00.md', text: CHAPTER },
    { path: 'src/ch02-01.md', text: second },
  ];
  const dropped = nearDuplicatePages(pages, ['book.toml']);
  t.is(dropped.get('nostarch/chapter02.md')?.startsWith('src/ch02-0'), true);
  const outside = nearDuplicatePages([...pages.slice(1), { path: 'guide/combined.md', text: chapter }], ['book.toml']);
  t.is(outside.size, 0, 'outside copy folders only near-identical pages are copies');
});

test('a stricter threshold keeps a copy that differs a little more', (t) => {
  const edited = CHAPTER.replace('hands-on project together', 'small project step by step')
    .replace('congratulatory message', 'short message')
    .replace('fundamentals', 'basics of the language');
  const pages = [
    { path: 'docs/guide.md', text: CHAPTER },
    { path: 'website/export/guide.md', text: edited },
  ];
  t.is(nearDuplicatePages(pages, ['mkdocs.yml']).size, 1);
  t.is(nearDuplicatePages(pages, ['mkdocs.yml'], 0.99).size, 0);
});
