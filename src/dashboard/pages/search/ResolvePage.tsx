import { useQuery } from '../../app/hooks';
import { Page } from '../../components/Page';
import { SearchDiscoveryDocument } from '../../gql/graphql';
import { ResolveBox } from './ResolveBox';

export default function ResolvePage() {
  const discovery = useQuery(SearchDiscoveryDocument);
  return (
    <Page title="Resolve a citation" lead="Turns a citation into the exact document: statutes, articles, decisions by ECLI or case number.">
      <ResolveBox countries={discovery.data?.countries.map((c) => c.code) ?? []} />
    </Page>
  );
}
