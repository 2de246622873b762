/** `GET /libs/metrics`'s contract (see http/validate.ts). */
import { z } from 'zod';
import { query, type RouteSchema } from '../../validate';
import { LIBRARY_ID_PATTERN } from '../shared-schema';

export const metricsSchemas = {
  'metrics.read': {
    summary: "A library's requests per UTC day and channel, tokens served and top queries (zeros for a library the caller cannot see)",
    tag: 'Metrics',
    query: z
      .object({
        libraryId: query.requiredText(300).openapi({ description: '/owner/repo', pattern: LIBRARY_ID_PATTERN }),
        days: query.int(1, 90, 30),
        bucket: query.oneOf(['day', 'hour'], 'day').openapi({ description: 'hour: also perHour, the last days × 24 UTC hours (days at most 7)' }),
      })
      .refine((q) => q.bucket === 'day' || q.days <= 7, { message: 'bucket=hour needs days of at most 7', path: ['bucket'] }),
    errors: ['invalid_library_id'],
  },
} satisfies Record<string, RouteSchema>;
