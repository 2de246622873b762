/**
 * robots.txt per origin for one crawl (robots-parser, for `ShelfmarkBot`): whether a URL may
 * be fetched, the Crawl-delay it asks for (capped at 10 s) and the sitemaps it names. Each
 * origin's file is fetched once; a missing or unreadable one allows everything.
 */
import robotsParser from 'robots-parser';
import { USER_AGENT } from '../../../net/web-fetch';

type Robots = ReturnType<typeof robotsParser>;

const MAX_CRAWL_DELAY_MS = 10_000;

export class RobotsRules {
  private readonly byOrigin = new Map<string, Promise<Robots | undefined>>();
  /** The largest Crawl-delay of the origins read so far, in ms. */
  crawlDelayMs = 0;

  /** `fetchText` gets a resource as text (undefined when absent). */
  constructor(private readonly fetchText: (url: string) => Promise<{ text: string } | undefined>) {}

  allows(url: URL): Promise<boolean> {
    return this.of(url.origin).then((r) => !r || r.isAllowed(url.href, 'ShelfmarkBot') !== false);
  }

  /** The sitemaps robots.txt names for an origin. */
  async sitemaps(origin: string): Promise<string[]> {
    return (await this.of(origin))?.getSitemaps() ?? [];
  }

  private of(origin: string): Promise<Robots | undefined> {
    let robots = this.byOrigin.get(origin);
    if (!robots) {
      const robotsUrl = `${origin}/robots.txt`;
      robots = this.fetchText(robotsUrl).then((r) => (r ? robotsParser(robotsUrl, r.text) : undefined));
      this.byOrigin.set(origin, robots);
      void robots.then((r) => {
        const delay = r?.getCrawlDelay(USER_AGENT) ?? r?.getCrawlDelay('ShelfmarkBot');
        if (delay) this.crawlDelayMs = Math.max(this.crawlDelayMs, Math.min(MAX_CRAWL_DELAY_MS, delay * 1000));
      });
    }
    return robots;
  }
}
