// Round-trip helper (not committed): an admin key on an installation named by the environment.
import { loadConfig } from './src/config';
import { createLogger } from './src/logger';
import { createServices } from './src/services';
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', WORKER_MODE: 'off' });
const services = await createServices(config, createLogger('silent'));
await services.auth.User.updateOne({ _id: 'usr_admin' }, { $set: { mustChangePassword: false } });
const { value } = await services.keys.create('usr_admin', 'round trip');
process.stdout.write(value);
await services.close();
