import { renderGraphiQL } from '@graphql-yoga/render-graphiql';

let page: string | undefined;

/** One self-contained GraphiQL page (React, GraphiQL and editor inline): works offline, no CDN. */
export function graphiqlPage(): string {
  page ??= renderGraphiQL({
    endpoint: '/graphql',
    title: 'GraphiQL — GitLab-compatible admin service',
    headerEditorEnabled: true,
    defaultQuery: '# Send your token in the headers pane: {"PRIVATE-TOKEN": "..."}\n{\n  groups(perPage: 5) {\n    total\n    nodes { id fullPath visibility }\n  }\n}\n',
  } as Parameters<typeof renderGraphiQL>[0]);
  return page;
}
