import { defineModule } from '../../core/module/app-module';
import { seedDemo } from './demo-data.seed';
import { seedScale } from './scale-data.seed';

/** `npm run seed`: the demo dataset (through the services) and `--scale N` benchmark data (bulk SQL). */
export const demoModule = defineModule({
  name: 'demo',
  seed: [(env) => seedDemo(env), async (env) => (env.scale > 0 ? seedScale(env.em, env.scale) : undefined)],
});

// The door: what other modules may use (docs/architecture.md, "Modules").
export { demoWebsite } from './demo-website';
