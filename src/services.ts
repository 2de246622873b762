/**
 * The composition root: connects the stores and builds every service once. HTTP, MCP, the
 * worker and the CLI scripts all receive this object, so they share the same use cases.
 */
import type { Connection } from 'mongoose';
import type { Config } from './config';
import type { Logger } from './logger';
import { connectMongo, pingMongo } from './store/mongo';
import { checkElasticsearch, createEsClient, pingElasticsearch, type EsClient, type NodeInfo } from './search/client';
import { libraryModel, type LibraryModel } from './store/models/library';
import { jobModel, type JobModel } from './store/models/job';

export interface Models {
  Library: LibraryModel;
  Job: JobModel;
}

export interface Services {
  config: Readonly<Config>;
  log: Logger;
  mongo: Connection;
  es: EsClient;
  esInfo: NodeInfo;
  models: Models;
  /** Per-store health, never throws. */
  health(): Promise<{ elasticsearch: boolean; mongodb: boolean }>;
  close(): Promise<void>;
}

export async function createServices(config: Readonly<Config>, log: Logger): Promise<Services> {
  const mongo = await connectMongo({ uri: config.mongodbUri, dbName: config.mongodbDb, timeoutMs: config.storeTimeoutMs }, log);
  const es = createEsClient(config.elasticsearchUrl, config.storeTimeoutMs);
  let esInfo: NodeInfo;
  try {
    esInfo = await checkElasticsearch(es);
  } catch (error) {
    await mongo.close();
    await es.close();
    throw new Error(`Elasticsearch at ${config.elasticsearchUrl} is not usable: ${(error as Error).message}`, { cause: error });
  }
  const models: Models = { Library: libraryModel(mongo), Job: jobModel(mongo) };
  await Promise.all(Object.values(models).map((m) => m.createIndexes()));
  log.info({ elasticsearch: esInfo.version }, 'stores connected');

  const healthTimeout = Math.min(config.storeTimeoutMs, 2000);
  return {
    config,
    log,
    mongo,
    es,
    esInfo,
    models,
    async health() {
      const [elasticsearch, mongodb] = await Promise.all([pingElasticsearch(es, healthTimeout), pingMongo(mongo, healthTimeout)]);
      return { elasticsearch, mongodb };
    },
    async close() {
      await Promise.allSettled([mongo.close(), es.close()]);
    },
  };
}
