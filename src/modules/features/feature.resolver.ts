import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { Internal } from '../../core/graphql/internal';
import { PageArgs, pageOfList, type Page } from '../../core/pagination/page';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { GATE_KINDS, gatesOf, stateOf, type Gate } from './feature-gates';
import { checkFeatureName } from './feature-value';
import type { Feature } from './feature.entity';
import { SetFeatureGateInput } from './feature.inputs';
import { FEATURES_MAX, featureService as service } from './feature.service';
import { MaxItems } from '../../core/graphql/list-bound';
import { FeatureConnection, FeatureFlagChangeType, FeatureGateType, FeatureState, FeatureType } from './feature.type';
import { featureChanges, type FeatureFlagChange } from './feature-changes';

/** Spec 4.35–4.36 plus later GitLab's DELETE; administrators only, except featureEnabled. */
@Resolver(() => FeatureType)
export class FeatureResolver {
  /** GitLab's `GET /features` answers every flag in one unpaged array. */
  @Internal()
  @Query(() => [FeatureType], {
    description: `Administrators only: every persisted feature, in storage order (not paginated; at most ${FEATURES_MAX}).`,
  })
  @Allow('admin')
  @MaxItems(FEATURES_MAX)
  featureList(@Ctx() ctx: RequestCtx): Promise<Feature[]> {
    return service.list(ctx);
  }

  /**
   * The same flags as a connection (GitLab's GraphQL API has no feature flags; designed as its lists
   * are): a query is costed by the page it asks for (`first`, default 20), not by the 1,000 flags a
   * plain list could hold.
   */
  @Query(() => FeatureConnection, {
    description: 'Administrators only: the persisted feature flags, in storage order.',
  })
  @Allow('admin')
  async features(@Args() args: PageArgs, @Ctx() ctx: RequestCtx): Promise<Page<Feature>> {
    return pageOfList(await service.list(ctx), args);
  }

  @Query(() => Boolean, {
    description:
      'Whether a flag is on for the caller (anonymous callers too), with the same evaluation the service uses.',
  })
  @Allow('anonymous')
  featureEnabled(@Arg('name', () => String) name: string, @Ctx() ctx: RequestCtx): Promise<boolean> {
    checkFeatureName(name);
    return service.isEnabled(ctx, name, { user: ctx.tokenInvalid ? null : ctx.user });
  }

  @Mutation(() => FeatureType, { description: 'Administrators only: sets a gate, creating the feature when new.' })
  @Allow('admin')
  setFeatureGate(
    @Arg('name', () => String) name: string,
    @Arg('input', () => SetFeatureGateInput) input: SetFeatureGateInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<Feature> {
    return service.set(ctx, name, input);
  }

  @Mutation(() => Boolean, {
    description:
      'Administrators only: removes the feature (it answers its default again); true even when it did not exist.',
  })
  @Allow('admin')
  deleteFeature(@Arg('name', () => String) name: string, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return service.remove(ctx, name);
  }

  @Subscription(() => FeatureFlagChangeType, {
    description:
      'Live: each flag set or deleted, on any instance, as it is once the change committed (WebSocket, graphql-transport-ws). Administrators only.',
    subscribe: ({ context }) => featureChanges(context as RequestCtx),
  })
  @Allow('admin')
  featureFlagChanged(@Root() change: FeatureFlagChange): FeatureFlagChange {
    return change;
  }

  @FieldResolver(() => FeatureState)
  state(@Root() f: Feature): FeatureState {
    return stateOf(f).toUpperCase() as FeatureState;
  }

  @FieldResolver(() => [FeatureGateType], { description: 'The boolean gate first, then only the gates that are set.' })
  @MaxItems(GATE_KINDS)
  gates(@Root() f: Feature): Gate[] {
    return gatesOf(f);
  }
}
