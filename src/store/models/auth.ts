/**
 * The accounts-and-access models in one bag (`services.auth`): users, teams, API keys,
 * sessions, settings, policies, credentials, rate-limit counters and usage counters. Each
 * is defined in its own file; only src/auth repositories use them (tests may inspect them).
 */
import type { Connection } from 'mongoose';
import { userModel } from './user';
import { teamModel } from './team';
import { apiKeyModel } from './api-key';
import { sessionModel } from './session';
import { settingsModel } from './settings';
import { policyModel } from './policy';
import { rateCounterModel } from './rate-counter';
import { usageDailyModel, usageQueryModel } from './usage';
import { credentialModel } from './credential';

export type { Role, TeamRole, UserRecord, MembershipRecord } from './user';
export type { PlanId, TeamRecord } from './team';
export type { ApiKeyRecord } from './api-key';
export type { SessionRecord } from './session';
export type { SettingsRecord } from './settings';
export type { PolicyRecord } from './policy';
export type { CredentialRecord } from './credential';
export type { RateCounterRecord as CounterRecord } from './rate-counter';
export type { UsageDailyRecord as UsageDayRecord, UsageQueryRecord } from './usage';

export function authModels(conn: Connection) {
  return {
    User: userModel(conn),
    Team: teamModel(conn),
    ApiKey: apiKeyModel(conn),
    Session: sessionModel(conn),
    Settings: settingsModel(conn),
    Policy: policyModel(conn),
    RateCounter: rateCounterModel(conn),
    UsageDaily: usageDailyModel(conn),
    UsageQuery: usageQueryModel(conn),
    Credential: credentialModel(conn),
  };
}

export type AuthModels = ReturnType<typeof authModels>;
