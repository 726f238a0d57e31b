import { Migration } from '@mikro-orm/migrations';

/** runners(tagList) / GET /runners?tag_list=: containment on the tag array, served by a GIN index. */
export class Migration20261203180000RunnerTagsGin extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index if not exists ci_runners_tag_list_gin on ci_runners using gin (tag_list);');
  }
}
