/** The team as the team page's sections receive it. */
import { type TeamQuery } from '../../gql/graphql';

export type Team = NonNullable<TeamQuery['team']>;

export type Member = Team['members'][number];
