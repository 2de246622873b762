import { getLibraryDocsTool } from './get-library-docs';
import { queryDocsTool } from './query-docs';
import { resolveLibraryIdTool } from './resolve-library-id';
import { searchDocsTool } from './search-docs';
import { getUpgradeGuideTool } from './get-upgrade-guide';
import { queryCodeTool } from './query-code';
import type { ShelfmarkTool } from './tool';

/** Every tool the Shelfmark MCP server offers, in listing order. */
export const SHELFMARK_TOOLS: readonly ShelfmarkTool[] = [
  resolveLibraryIdTool,
  queryDocsTool,
  getLibraryDocsTool,
  searchDocsTool,
  getUpgradeGuideTool,
  queryCodeTool,
];

export type { ShelfmarkTool };
