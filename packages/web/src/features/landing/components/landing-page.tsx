import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { AboutSection } from './about-section.tsx';
import { ContactSection } from './contact-section.tsx';
import { DemoAlertsSection } from './demo-alerts-section.tsx';
import { FeaturesSection } from './features-section.tsx';
import { HeroSection } from './hero-section.tsx';

/** Scrolls to the section named in the URL hash (#features, #about, #contact) on every visit to it. */
function useScrollToHash() {
  const { hash, key } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a repeated click on the same link has a new key and scrolls again.
  useEffect(() => {
    if (!hash) return;
    document.getElementById(hash.slice(1))?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [hash, key]);
}

export function LandingPage() {
  useScrollToHash();
  return (
    <>
      <title>VitalWatch · Real-time health monitoring</title>
      <HeroSection />
      <FeaturesSection />
      <AboutSection />
      <DemoAlertsSection />
      <ContactSection />
    </>
  );
}
