import { defineRoutes, type ParamException, type RouteDef } from '../../rest/route';
import { CUSTOM_ATTRIBUTE_OWNERS } from './custom-attribute.resolver';
import { CustomAttributeWire } from './custom-attribute.type';

/** `/users/:id/custom_attributes[/:key]`, and the same under /groups and /projects (admin only). */
function routesOf(owner: string, idArg: string, tag: string): RouteDef[] {
  const base = `/${tag}/:id/custom_attributes`;
  const lower = owner.charAt(0).toLowerCase() + owner.slice(1);
  // An integer id beyond int4 is the owner's 404, as any other unknown id.
  const params: Record<string, ParamException> = { id: { arg: idArg, notFound: owner } };
  return [
    {
      method: 'GET',
      path: base,
      field: `Query.${lower}CustomAttributes`,
      params,
      shape: CustomAttributeWire,
      summary: 'List custom attributes (admin)',
      tag,
    },
    {
      method: 'GET',
      path: `${base}/:key`,
      field: `Query.${lower}CustomAttribute`,
      params,
      shape: CustomAttributeWire,
      summary: 'Get a custom attribute (admin)',
      tag,
    },
    {
      method: 'PUT',
      path: `${base}/:key`,
      field: `Mutation.set${owner}CustomAttribute`,
      params,
      shape: CustomAttributeWire,
      summary: 'Set a custom attribute (admin)',
      tag,
    },
    {
      method: 'DELETE',
      path: `${base}/:key`,
      field: `Mutation.delete${owner}CustomAttribute`,
      params,
      summary: 'Delete a custom attribute (admin)',
      tag,
    },
  ];
}

export const customAttributeRoutes = defineRoutes(
  CUSTOM_ATTRIBUTE_OWNERS.flatMap((o) => routesOf(o.owner, o.idArg, `${o.owner.toLowerCase()}s`)),
);
