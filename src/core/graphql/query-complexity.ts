import { Kind, type DocumentNode, type GraphQLResolveInfo } from 'graphql';
import { Ctx, Field, Info, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { Allow } from '../auth/allow';
import type { RequestCtx } from '../context/request-ctx';
import { MAX_COMPLEXITY, MAX_DEPTH, operationCost, type OperationCost } from './query-limits';

@ObjectType('QueryComplexity', {
  description: "The cost of the operation this field is part of, as the limits count it (GitLab's queryComplexity).",
})
export class QueryComplexityType {
  @Field(() => Int, {
    description:
      'Complexity of this operation: field values it may resolve, lists counted at their page size or bound.',
  })
  score!: number;

  @Field(() => Int, { description: 'The most complexity an operation may have.' })
  limit!: number;

  @Field(() => Int, { description: 'Depth of this operation.' })
  depth!: number;

  @Field(() => Int, { description: 'The deepest an operation may nest.' })
  depthLimit!: number;
}

/**
 * The cost the query limits computed for an operation, by its context value (Apollo gives each
 * operation of a request its own copy of the context, the same object its plugins and resolvers see).
 */
const costs = new WeakMap<RequestCtx, OperationCost>();

/** Called where the limits are checked (apollo.ts didResolveOperation), once the operation passed them. */
export function recordOperationCost(ctx: RequestCtx, cost: OperationCost): void {
  costs.set(ctx, cost);
}

/** The same walk from what a resolver sees, for an operation run outside Apollo (none does today). */
function costFromInfo(info: GraphQLResolveInfo): OperationCost {
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [info.operation, ...Object.values(info.fragments)],
  };
  return operationCost(info.schema, document, info.operation, info.variableValues);
}

@Resolver()
export class QueryComplexityResolver {
  @Query(() => QueryComplexityType, {
    description: 'The complexity and depth of this very operation and their limits, computed before it runs.',
  })
  @Allow('anonymous')
  queryComplexity(@Ctx() ctx: RequestCtx, @Info() info: GraphQLResolveInfo): QueryComplexityType {
    const cost = costs.get(ctx) ?? costFromInfo(info);
    return { score: cost.cost, limit: MAX_COMPLEXITY, depth: cost.depth, depthLimit: MAX_DEPTH };
  }
}
