import { Migration20261121000000Initial } from './Migration20261121000000_initial';

/** Explicit list (no file globbing): the same code runs from dist/ and under jest. */
export const MIGRATIONS = [{ name: 'Migration20261121000000_initial', class: Migration20261121000000Initial }];
