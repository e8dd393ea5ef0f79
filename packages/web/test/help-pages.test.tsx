import { screen, within } from '@testing-library/react';
import { DEFAULT_ALARM_SETTINGS } from '@vitalwatch/shared';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Footer } from '@/app/layouts/footer.tsx';
import { routes } from '@/app/routes.tsx';
import { AlertRulesList } from '@/features/help/components/alert-rules-list.tsx';
import { renderWithApp } from './render.tsx';

describe('footer', () => {
  it('links only to pages the app has, and to the API reference labelled for developers', () => {
    renderWithApp(<Footer />);
    const links = within(screen.getByRole('contentinfo')).getAllByRole('link');
    const inApp = links.filter((a) => a.getAttribute('href') !== '/docs');
    expect(inApp.map((a) => a.getAttribute('href'))).toEqual(['/guide', '/faq', '/support', '/about']);
    for (const link of inApp) {
      const matched = matchRoutes(routes, link.getAttribute('href') ?? '') ?? [];
      expect(matched.at(-1)?.route.path, link.textContent ?? '').not.toBe('*');
    }
    const developers = screen.getByRole('navigation', { name: 'Developers' });
    expect(within(developers).getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/docs');
  });
});

describe("the user guide's alert rules", () => {
  it('say the shared default limits, delays and critical levels', () => {
    renderWithApp(<AlertRulesList />);
    const { LOW_SPO2, HIGH_TEMPERATURE } = DEFAULT_ALARM_SETTINGS.conditions;
    expect(
      screen.getByText(
        `When it stays below ${LOW_SPO2.limit} % for ${LOW_SPO2.delaySeconds} seconds. At ${LOW_SPO2.critical} % or lower it is raised at once, with high priority.`,
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        `When it stays above ${HIGH_TEMPERATURE.limit} °F for ${HIGH_TEMPERATURE.delaySeconds / 60} minutes. At ${HIGH_TEMPERATURE.critical} °F or higher it is raised at once, with high priority.`,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('As soon as it is below 20 %.')).toBeInTheDocument();
    const fall = screen.getByText('Fall (FALL)').closest('li');
    expect(fall).toHaveTextContent('High priority');
  });
});
