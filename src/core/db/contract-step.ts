/**
 * A migration that takes something away (drops or renames a column or table, sets NOT NULL, changes a
 * type, empties a column) breaks the previous release, which still runs beside it during a rolling
 * upgrade and after a rollback. It is allowed only as the contract half of an expand step shipped at
 * least one release earlier, and says so on its class:
 *
 *   export class Migration20270110090000DropClearCredentials extends Migration {
 *     static readonly contract: ContractStep = {
 *       expandedBy: 'Migration20261123100000_application_settings_secrets',
 *       unusedSince: '0.2.0',
 *     };
 *
 * test/upgrade/migration-policy.test.ts checks every migration added since the previous release
 * (docs/operations.md#upgrades-and-rollbacks, docs/adding-a-resource.md#3-the-migration).
 */
export interface ContractStep {
  /** The migration that added the replacement; it must be in the previous release already. */
  expandedBy: string;
  /** The first release whose code no longer reads or writes what is removed; at most the previous release. */
  unusedSince: string;
}
