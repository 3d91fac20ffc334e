/** The administration's own tabs (stats, users, feedback, audit log). */
import { NavLink } from 'react-router';
import './admin.css';

const TABS = [
  { to: '/admin', label: 'Overview' },
  { to: '/admin/users', label: 'Users' },
  { to: '/admin/feedback', label: 'Feedback' },
  { to: '/admin/audit', label: 'Audit log' },
];

export function AdminNav() {
  return (
    <nav aria-label="Administration" className="tabs">
      <ul>
        {TABS.map((t) => (
          <li key={t.to}>
            <NavLink to={t.to} end>
              {t.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The catalogue's plans an administrator can set. */
export const PLAN_CHOICES = ['free', 'professional', 'professional_plus', 'developer_pro', 'developer_scale'] as const;
