/**
 * The shape of a Shelfmark MCP tool: defined once, served by both transports. `run` reads
 * the (alias-tolerant) arguments, calls the backend and returns the text answer; failures
 * are thrown as AppErrors and turned into `isError` results by the server (see errors.ts).
 */
import type { z } from 'zod/v4';
import type { DocsBackend } from '../backend';
import type { ToolArguments } from '../arguments';

export interface ShelfmarkTool {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodType<ToolArguments>;
  run(args: ToolArguments, backend: DocsBackend): Promise<string>;
}
