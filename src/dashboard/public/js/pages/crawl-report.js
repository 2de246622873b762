// What a website, llms.txt or archive build left out and why: counts per reason, then the
// skipped URLs (the server keeps the first 200; the rest are counted).
import { h, formatNumber } from '../dom.js';
import { table } from '../ui.js';

/** Plain words for the crawler's skip reasons. */
const REASONS = {
  robots: 'refused by robots.txt',
  status: 'HTTP error status',
  redirect_off_scope: 'redirected off scope',
  too_large: 'too large',
  not_html: 'not HTML or text',
  duplicate: 'duplicate content',
  timeout: 'timed out',
  blocked_address: 'blocked address (SSRF rules)',
  out_of_scope: 'out of scope',
  max_pages: 'over maxPages',
  max_depth: 'over maxDepth',
  max_urls: "over the crawl's URL budget",
  time_budget: "after the crawl's time budget",
  error: 'fetch error',
};

export const reasonText = (reason) => REASONS[reason] ?? reason;

/** The report as a section (heading, counts, table), or null when there is none. */
export function crawlReport(report, { heading = 'Crawl report' } = {}) {
  if (!report) return null;
  const skippedTotal = report.counts.reduce((n, c) => n + c.count, 0);
  return h(
    'section.crawl-report',
    { 'aria-label': heading },
    h('h2', heading),
    h(
      'p',
      `${formatNumber(report.pagesFetched)} pages fetched, ${formatNumber(report.pagesUnchanged)} unchanged since the last crawl, ${formatNumber(skippedTotal)} URLs skipped.`,
    ),
    report.counts.length
      ? h(
          'ul.crawl-counts',
          report.counts.map((c) => h('li', h('strong', formatNumber(c.count)), ` ${reasonText(c.reason)} `, h('code.small', c.reason))),
        )
      : null,
    table(
      [
        { label: 'URL', cell: (s) => h('span.mono.small', s.url) },
        { label: 'Reason', cell: (s) => reasonText(s.reason) },
        { label: 'Detail', cell: (s) => s.detail ?? '' },
      ],
      report.skipped,
      {
        empty: 'Nothing was skipped.',
        caption: report.skippedOmitted
          ? `The first ${report.skipped.length} skipped URLs; ${formatNumber(report.skippedOmitted)} more are only counted.`
          : undefined,
      },
    ),
  );
}
