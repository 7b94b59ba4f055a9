package cli;

import org.junit.jupiter.api.Test;

import static cli.BrowserProtocolTest.refused;

/**
 * browser --lighthouse's usage errors, each one sentence and exit 2 before anything is started: what Lighthouse is
 * not given (another protocol, a foreign app, a throttling it does not name), and its flags without it.
 */
class BrowserLighthouseTest {

    @Test
    void whatLighthouseIsNotGivenIsRefusedInOneSentence() {
        refused("--lighthouse loads pages over h1 only: leave out --protocol.", "browser", "--lighthouse",
                "--protocol=h2");
        refused("--lighthouse-throttling takes one of simulate, devtools, provided, not fast.", "browser",
                "--lighthouse", "--lighthouse-throttling=fast");
        refused("--lighthouse-throttling and --lighthouse-home go with --lighthouse.", "browser",
                "--lighthouse-throttling=devtools");
        refused("--lighthouse-throttling and --lighthouse-home go with --lighthouse.", "browser",
                "--lighthouse-home=/nowhere");
        refused("not a foreign app: leave out --label.", "browser", "--lighthouse",
                "--target=http://127.0.0.1:9/", "--label=app");
    }
}
