import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import type { PagesDomain } from './pages-domain.entity';
import { pagesDomainService } from './pages-domain.service';
import {
  CreatePagesDomainInput, PagesDomainCertificateType, PagesDomainPage, PagesDomainType, ProjectPagesDomainsArgs, UpdatePagesDomainInput,
} from './pages-domain.type';

/** Spec 4.24-4.29. Admin and Master checks run in the service, after the pages switch (GitLab's order). */
@Resolver(() => PagesDomainType)
export class PagesDomainResolver {
  @Query(() => PagesDomainPage, { description: 'Every pages domain of the instance (administrators).' })
  @Allow('user')
  pagesDomains(@Args() args: PageArgs, @Ctx() ctx: RequestCtx): Promise<Page<PagesDomain>> {
    return pagesDomainService.listAll(ctx, args);
  }

  @Query(() => PagesDomainPage, { description: 'Pages domains of a project, by domain (Master or above).' })
  @Allow('user')
  projectPagesDomains(@Args() args: ProjectPagesDomainsArgs, @Ctx() ctx: RequestCtx): Promise<Page<PagesDomain>> {
    return pagesDomainService.listProject(ctx, args);
  }

  @Query(() => PagesDomainType)
  @Allow('user')
  pagesDomain(@Arg('projectId', () => ID) projectId: string, @Arg('domain', () => String) domain: string, @Ctx() ctx: RequestCtx): Promise<PagesDomain> {
    return pagesDomainService.get(ctx, projectId, domain);
  }

  @Mutation(() => PagesDomainType)
  @Allow('user')
  createPagesDomain(@Arg('projectId', () => ID) projectId: string, @Arg('input', () => CreatePagesDomainInput) input: CreatePagesDomainInput, @Ctx() ctx: RequestCtx): Promise<PagesDomain> {
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
  deletePagesDomain(@Arg('projectId', () => ID) projectId: string, @Arg('domain', () => String) domain: string, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return pagesDomainService.remove(ctx, projectId, domain);
  }

  @FieldResolver(() => String)
  url(@Root() d: PagesDomain): string {
    return `${d.certificate ? 'https' : 'http'}://${d.domain}`;
  }

  /** Stored values only: the certificate was parsed when the domain was saved (issue 18, F5). */
  @FieldResolver(() => PagesDomainCertificateType, { nullable: true })
  certificate(@Root() d: PagesDomain, @Ctx() ctx: RequestCtx): PagesDomainCertificateType | null {
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
}
