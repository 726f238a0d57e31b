import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { pageItemsSelect } from '../../core/graphql/selection';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import type { PagesDomain } from './pages-domain.entity';
import { pagesDomainService } from './pages-domain.service';
import {
  CreatePagesDomainInput,
  PagesDomainCertificateType,
  PagesDomainPage,
  PagesDomainType,
  ProjectPagesDomainsArgs,
  UpdatePagesDomainInput,
} from './pages-domain.type';
import type { Loaded } from '../../core/context/peek-loader';

/** Spec 4.24-4.29. Admin and Master checks run in the service, after the pages switch (GitLab's order). */
@Resolver(() => PagesDomainType)
export class PagesDomainResolver {
  @Query(() => PagesDomainPage, { description: 'Every pages domain of the instance (administrators).' })
  @Allow('user')
  pagesDomains(
    @Args() args: PageArgs,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page<PagesDomain>> {
    return pagesDomainService.listAll(ctx, args, { certificates: pageItemsSelect(info, 'certificate') });
  }

  @Internal()
  @Query(() => PagesDomainPage, { description: 'Pages domains of a project, by domain (Master or above).' })
  @Allow('user')
  projectPagesDomains(
    @Args() args: ProjectPagesDomainsArgs,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page<PagesDomain>> {
    return pagesDomainService.listProject(ctx, args, { certificates: pageItemsSelect(info, 'certificate') });
  }

  @Internal()
  @Query(() => PagesDomainType)
  @Allow('user')
  pagesDomain(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('domain', () => String) domain: string,
    @Ctx() ctx: RequestCtx,
  ): Promise<PagesDomain> {
    return pagesDomainService.get(ctx, projectId, domain);
  }

  @Mutation(() => PagesDomainType)
  @Allow('user')
  createPagesDomain(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => CreatePagesDomainInput) input: CreatePagesDomainInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<PagesDomain> {
    return pagesDomainService.create(ctx, projectId, input);
  }

  @Mutation(() => PagesDomainType)
  @Allow('user')
  updatePagesDomain(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('domain', () => String) domain: string,
    @Arg('input', () => UpdatePagesDomainInput) input: UpdatePagesDomainInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<PagesDomain> {
    return pagesDomainService.update(ctx, projectId, domain, input);
  }

  @Mutation(() => Boolean)
  @Allow('user')
  deletePagesDomain(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('domain', () => String) domain: string,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return pagesDomainService.remove(ctx, projectId, domain);
  }

  @FieldResolver(() => String)
  url(@Root() d: PagesDomain): string {
    // A list that does not read certificates has '' for one that exists (pages-domain.service.ts, listOf).
    return `${d.certificate !== null && d.certificate !== undefined ? 'https' : 'http'}://${d.domain}`;
  }

  /** Stored values only: the certificate was parsed when the domain was saved; a read never parses. */
  @FieldResolver(() => PagesDomainCertificateType, { nullable: true })
  certificate(@Root() d: PagesDomain, @Ctx() ctx: RequestCtx): Loaded<PagesDomainCertificateType | null> {
    // A light row (pages-domain.service.ts, LIGHT_COLUMNS) has '' for a certificate it did not read.
    if (d.certificate === '')
      return ctx.loaders.pagesCertificate.load(d.id).then((c) => certificateView(ctx, { ...d, ...c }));
    return certificateView(ctx, d);
  }
}

function certificateView(
  ctx: RequestCtx,
  d: Pick<
    PagesDomain,
    'certificate' | 'certificateNotAfter' | 'certificateNotBefore' | 'certificateSubject' | 'certificateText'
  >,
): PagesDomainCertificateType | null {
  if (!d.certificate || !d.certificateNotAfter || !d.certificateNotBefore) return null;
  const now = ctx.clock.now();
  return {
    certificate: d.certificate,
    expiration: d.certificateNotAfter,
    expired: now < d.certificateNotBefore || now > d.certificateNotAfter,
    subject: d.certificateSubject ?? '',
    certificateText: d.certificateText ?? '',
  };
}
