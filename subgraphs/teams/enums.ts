/**
 * The closed set of the teams arguments as a GraphQL enum (issue #35, item 7), from the REST
 * schema it validates against.
 */
import { closedSetEnum } from '../../src/graphql/closed-set-enum.js';
import { roleRequestSchema } from '../../src/modules/teams/teams.schema.js';

/** The roles an owner or admin can give a member (owner is moved only by a transfer). */
export const AssignableRole = closedSetEnum('AssignableRole', roleRequestSchema.shape.role.options, 'A role a member can be given.');
