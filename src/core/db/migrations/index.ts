import { Migration20261121000000Initial } from './Migration20261121000000_initial';
import { Migration20261202100000SecretsKeyCheck } from './Migration20261202100000_secrets_key_check';
import { Migration20261202120000RateLimitCounters } from './Migration20261202120000_rate_limit_counters';
import { Migration20261209090000CacheNotify } from './Migration20261209090000_cache_notify';

/** Explicit list (no file globbing): the same code runs from dist/ and under jest. */
export const MIGRATIONS = [
  { name: 'Migration20261121000000_initial', class: Migration20261121000000Initial },
  { name: 'Migration20261202100000_secrets_key_check', class: Migration20261202100000SecretsKeyCheck },
  { name: 'Migration20261202120000_rate_limit_counters', class: Migration20261202120000RateLimitCounters },
  { name: 'Migration20261209090000_cache_notify', class: Migration20261209090000CacheNotify },
];
