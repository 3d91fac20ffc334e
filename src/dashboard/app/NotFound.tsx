import { Link } from 'react-router';
import { Page } from '../components/Page';

export function NotFound() {
  return (
    <Page title="Page not found">
      <p>There is no page at this address.</p>
      <p>
        <Link to="/">Back to the overview</Link>
      </p>
    </Page>
  );
}
