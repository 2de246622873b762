// Types of connect-setups.js for the TypeScript test that runs its setups (not served: only known asset types are).
export interface ConnectSetup {
  id: string;
  name: string;
  where: string;
  format: 'json' | 'toml' | 'shell';
  transport: 'http' | 'stdio';
  text: string;
  note?: string;
}
export function connectSetups(o: { mcpUrl: string; apiUrl: string; key?: string; stdio: { command: string; script: string } }): ConnectSetup[];
export const KEY_PLACEHOLDER: string;
