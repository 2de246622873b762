/**
 * The symbols a source file declares (its outline): tree-sitter grammars compiled to
 * WebAssembly (@vscode/tree-sitter-wasm, the set VS Code ships: TypeScript/TSX, JavaScript,
 * Python, Go, Rust, Java, C#, C/C++, Ruby, PHP, Bash), so no native build and one parser
 * family for every language instead of a regex per language. Per language a table says
 * which node types declare what, which nodes are scopes whose members belong to the outline
 * (classes, modules, impl blocks) and which wrappers to look through (export statements,
 * class bodies); a function's body is never entered, so local helpers are not listed.
 * Files of other languages have no outline (search still reads them).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TreeSitter from '@vscode/tree-sitter-wasm';

const require = createRequire(import.meta.url);

export type SymbolKind = 'class' | 'interface' | 'type' | 'enum' | 'function' | 'method' | 'field' | 'variable' | 'constant' | 'module';

export interface CodeSymbol {
  name: string;
  kind: SymbolKind;
  /** 1-based lines of the declaration. */
  line: number;
  endLine: number;
  /** The enclosing class, module or impl, when there is one. */
  container?: string;
  /** The declaration's first line, trimmed. */
  signature: string;
}

interface Grammar {
  wasm: string;
  defs: Record<string, SymbolKind>;
  /** Declarations whose members are listed too. */
  scopes: ReadonlySet<string>;
  /** Wrappers looked through (bodies, export statements, declaration lists). */
  wrappers: ReadonlySet<string>;
}

const JS_DEFS: Record<string, SymbolKind> = {
  function_declaration: 'function',
  generator_function_declaration: 'function',
  function_signature: 'function',
  class_declaration: 'class',
  abstract_class_declaration: 'class',
  // `module.exports = class Application extends Emitter {` (CommonJS) names its class.
  class: 'class',
  method_definition: 'method',
  method_signature: 'method',
  abstract_method_signature: 'method',
  interface_declaration: 'interface',
  type_alias_declaration: 'type',
  enum_declaration: 'enum',
  internal_module: 'module',
  module: 'module',
  variable_declarator: 'variable',
  public_field_definition: 'field',
  field_definition: 'field',
  property_signature: 'field',
};
const JS: Omit<Grammar, 'wasm'> = {
  defs: JS_DEFS,
  scopes: new Set(['class_declaration', 'abstract_class_declaration', 'class', 'interface_declaration', 'internal_module', 'module']),
  wrappers: new Set([
    'program',
    'export_statement',
    'lexical_declaration',
    'variable_declaration',
    'class_body',
    'interface_body',
    'object_type',
    'statement_block',
    'ambient_declaration',
    'expression_statement',
    'assignment_expression',
  ]),
};

const GRAMMARS: Record<string, Grammar> = {
  typescript: { wasm: 'tree-sitter-typescript.wasm', ...JS },
  tsx: { wasm: 'tree-sitter-tsx.wasm', ...JS },
  javascript: { wasm: 'tree-sitter-javascript.wasm', ...JS },
  python: {
    wasm: 'tree-sitter-python.wasm',
    defs: { function_definition: 'function', class_definition: 'class' },
    scopes: new Set(['class_definition']),
    wrappers: new Set(['module', 'decorated_definition', 'block']),
  },
  go: {
    wasm: 'tree-sitter-go.wasm',
    defs: {
      function_declaration: 'function',
      method_declaration: 'method',
      type_spec: 'type',
      type_alias: 'type',
      const_spec: 'constant',
      var_spec: 'variable',
    },
    scopes: new Set(),
    wrappers: new Set(['source_file', 'type_declaration', 'const_declaration', 'var_declaration', 'var_spec_list']),
  },
  rust: {
    wasm: 'tree-sitter-rust.wasm',
    defs: {
      function_item: 'function',
      function_signature_item: 'method',
      struct_item: 'class',
      enum_item: 'enum',
      union_item: 'class',
      trait_item: 'interface',
      impl_item: 'class',
      mod_item: 'module',
      const_item: 'constant',
      static_item: 'variable',
      type_item: 'type',
      macro_definition: 'function',
    },
    scopes: new Set(['trait_item', 'impl_item', 'mod_item']),
    wrappers: new Set(['source_file', 'declaration_list']),
  },
  java: {
    wasm: 'tree-sitter-java.wasm',
    defs: {
      class_declaration: 'class',
      interface_declaration: 'interface',
      enum_declaration: 'enum',
      record_declaration: 'class',
      annotation_type_declaration: 'interface',
      method_declaration: 'method',
      constructor_declaration: 'method',
    },
    scopes: new Set(['class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration']),
    wrappers: new Set(['program', 'class_body', 'interface_body', 'enum_body', 'enum_body_declarations']),
  },
  csharp: {
    wasm: 'tree-sitter-c-sharp.wasm',
    defs: {
      namespace_declaration: 'module',
      file_scoped_namespace_declaration: 'module',
      class_declaration: 'class',
      struct_declaration: 'class',
      interface_declaration: 'interface',
      record_declaration: 'class',
      enum_declaration: 'enum',
      method_declaration: 'method',
      constructor_declaration: 'method',
      property_declaration: 'field',
      delegate_declaration: 'type',
    },
    scopes: new Set([
      'namespace_declaration',
      'file_scoped_namespace_declaration',
      'class_declaration',
      'struct_declaration',
      'interface_declaration',
      'record_declaration',
    ]),
    wrappers: new Set(['compilation_unit', 'declaration_list']),
  },
  cpp: {
    wasm: 'tree-sitter-cpp.wasm',
    defs: {
      function_definition: 'function',
      class_specifier: 'class',
      struct_specifier: 'class',
      enum_specifier: 'enum',
      namespace_definition: 'module',
      type_definition: 'type',
    },
    scopes: new Set(['class_specifier', 'struct_specifier', 'namespace_definition']),
    wrappers: new Set([
      'translation_unit',
      'declaration_list',
      'field_declaration_list',
      'template_declaration',
      'linkage_specification',
      'preproc_if',
      'preproc_ifdef',
      'preproc_else',
    ]),
  },
  ruby: {
    wasm: 'tree-sitter-ruby.wasm',
    defs: { class: 'class', module: 'module', method: 'method', singleton_method: 'method' },
    scopes: new Set(['class', 'module']),
    wrappers: new Set(['program', 'body_statement']),
  },
  php: {
    wasm: 'tree-sitter-php.wasm',
    defs: {
      function_definition: 'function',
      class_declaration: 'class',
      interface_declaration: 'interface',
      trait_declaration: 'class',
      enum_declaration: 'enum',
      method_declaration: 'method',
      namespace_definition: 'module',
    },
    scopes: new Set(['class_declaration', 'interface_declaration', 'trait_declaration', 'enum_declaration', 'namespace_definition']),
    wrappers: new Set(['program', 'declaration_list', 'compound_statement', 'enum_declaration_list']),
  },
  bash: { wasm: 'tree-sitter-bash.wasm', defs: { function_definition: 'function' }, scopes: new Set(), wrappers: new Set(['program']) },
};

const EXTENSIONS: Record<string, string> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
  '.cs': 'csharp',
  '.c': 'cpp',
  '.h': 'cpp',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.cxx': 'cpp',
  '.hpp': 'cpp',
  '.hh': 'cpp',
  '.rb': 'ruby',
  '.php': 'php',
  '.sh': 'bash',
  '.bash': 'bash',
};

/** The grammar that reads a file, by its extension (undefined: no outline for it). */
export function languageOfPath(filePath: string): string | undefined {
  return EXTENSIONS[path.extname(filePath).toLowerCase()];
}

type TS = typeof TreeSitter;
let runtime: Promise<TS> | undefined;
const parsers = new Map<string, Promise<TreeSitter.Parser>>();

async function parserFor(language: string): Promise<TreeSitter.Parser> {
  let p = parsers.get(language);
  if (!p) {
    p = (async () => {
      const ts = await (runtime ??= (async () => {
        const mod = require('@vscode/tree-sitter-wasm') as TS;
        await mod.Parser.init();
        return mod;
      })());
      const grammar = GRAMMARS[language];
      const lang = await ts.Language.load(path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm')), grammar.wasm));
      const parser = new ts.Parser();
      parser.setLanguage(lang);
      return parser;
    })();
    parsers.set(language, p);
  }
  return p;
}

/** The identifier a declaration names (C/C++ declarators nest it; Rust impls name a type). */
function nameOf(node: TreeSitter.Node): string | undefined {
  const direct = node.childForFieldName('name') ?? (node.type === 'impl_item' ? node.childForFieldName('type') : null);
  if (direct) return direct.text;
  let d = node.childForFieldName('declarator');
  for (let depth = 0; d && depth < 8; depth++) {
    if (/identifier$|^destructor_name$|^operator_name$/.test(d.type)) return d.text;
    d = d.childForFieldName('declarator') ?? d.childForFieldName('name');
  }
  return undefined;
}

function signatureOf(lines: string[], row: number): string {
  const text = (lines[row] ?? '').trim();
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/** The outline of one file's text in `language` (from languageOfPath), in source order. */
export async function outlineOf(text: string, language: string): Promise<CodeSymbol[]> {
  const grammar = GRAMMARS[language];
  if (!grammar) return [];
  const parser = await parserFor(language);
  const tree = parser.parse(text);
  if (!tree) return [];
  const lines = text.split('\n');
  const out: CodeSymbol[] = [];
  const visit = (node: TreeSitter.Node, container: string | undefined, depth: number): void => {
    if (depth > 40) return;
    for (const child of node.namedChildren) {
      if (!child) continue;
      const kind = grammar.defs[child.type];
      if (kind) {
        const name = nameOf(child);
        // A declarator that destructures (`const { a } = …`) names no one symbol.
        if (name && /^[\p{L}\p{N}_$:~.<>\\-]+$/u.test(name)) {
          const asMember = kind === 'function' && container !== undefined && language !== 'go' ? 'method' : kind;
          out.push({
            name,
            kind: asMember,
            line: child.startPosition.row + 1,
            endLine: child.endPosition.row + 1,
            ...(container ? { container } : {}),
            signature: signatureOf(lines, child.startPosition.row),
          });
        }
        if (grammar.scopes.has(child.type)) visit(child.childForFieldName('body') ?? child, name ?? container, depth + 1);
      } else if (grammar.wrappers.has(child.type)) {
        visit(child, container, depth + 1);
      }
    }
  };
  try {
    visit(tree.rootNode, undefined, 0);
  } finally {
    tree.delete();
  }
  return out;
}

/** Whether a symbol is the one `wanted` names (`name`, or `Container.name`). */
export function symbolMatches(symbol: CodeSymbol, wanted: string): boolean {
  if (symbol.name === wanted) return true;
  const dot = wanted.lastIndexOf('.');
  return dot > 0 && symbol.name === wanted.slice(dot + 1) && symbol.container === wanted.slice(0, dot);
}
