/** The Connect page's contract (see http/validate.ts). */
import { z } from 'zod';
import type { RouteSchema } from '../../validate';

export const connectSchemas = {
  'connect.read': {
    summary:
      "Where assistants reach this server: its public URL (SHELFMARK_PUBLIC_URL, else the address this request came to, with a warning when only this machine can use it), the MCP URL, the stdio bridge's path on the server, and whether a key is required",
    tag: 'Connect',
    response: z.object({
      publicUrl: z.string(),
      mcpUrl: z.string(),
      source: z.enum(['config', 'request']),
      warning: z.string().nullable(),
      keyRequired: z.boolean(),
      stdio: z.object({ command: z.string(), script: z.string() }),
    }),
  },
} satisfies Record<string, RouteSchema>;
