///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 21+
// Keep these in sync with pom.xml (tests/cli/ProjectConsistencyTest checks it).
//DEPS io.netty:netty-bom:4.2.18.Final@pom
//DEPS io.helidon.webserver:helidon-webserver:4.5.0
//DEPS io.helidon.webserver:helidon-webserver-http2:4.5.0
//DEPS org.eclipse.jetty.http2:jetty-http2-server:12.1.12
//DEPS org.eclipse.jetty:jetty-alpn-java-server:12.1.12
//DEPS org.bouncycastle:bcpkix-jdk18on:1.84
//DEPS io.javalin:javalin:7.2.3
//DEPS io.projectreactor.netty:reactor-netty-http:1.3.8
//DEPS io.vertx:vertx-core:5.2.3
//DEPS io.reactivex.rxjava3:rxjava:3.1.12
// HtmlFlow 4.7: its one jar has the suspendable views; 5.x moved them to htmlflow-kotlin, not on Maven Central.
//DEPS com.github.xmlet:htmlflow:4.7
// Guava named: HtmlFlow 4.7 asks for 33.0.0, Selenium for 33.7.2; Maven and jbang would each pick another.
//DEPS com.google.guava:guava:33.7.2-jre
//DEPS org.jetbrains.kotlin:kotlin-stdlib:2.2.20
//DEPS org.jetbrains.kotlinx:kotlinx-coroutines-core:1.11.0
//DEPS org.jetbrains.kotlinx:kotlinx-coroutines-rx3:1.11.0
//DEPS io.jstach:jstachio:1.3.7
//DEPS io.pebbletemplates:pebble:4.1.2
//DEPS org.freemarker:freemarker:2.3.35
//DEPS org.trimou:trimou-core:2.5.1.Final
//DEPS com.github.spullara.mustache.java:compiler:0.9.14
//DEPS org.thymeleaf:thymeleaf:3.1.5.RELEASE
//DEPS org.apache.velocity:velocity-engine-core:2.4.1
//DEPS gg.jte:jte:3.2.4
//DEPS com.fizzed:rocker-runtime:2.4.0
//DEPS com.fizzed:rocker-compiler:2.4.0
// Rocker's parser needs the ANTLR runtime it was generated with; jbang would resolve Helidon's newer one.
//DEPS org.antlr:antlr4-runtime:4.5.3
//DEPS io.quarkus.qute:qute-core:3.38.2
//DEPS org.jetbrains.kotlinx:kotlinx-html-jvm:0.12.0
//DEPS info.picocli:picocli:4.7.7
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
// jackson-core named so that it is databind's version, not the older one Vert.x asks for.
//DEPS com.fasterxml.jackson.core:jackson-core:2.22.4
//DEPS com.fasterxml.jackson.dataformat:jackson-dataformat-csv:2.22.4
//DEPS org.jsoup:jsoup:1.24.1
//DEPS org.slf4j:slf4j-jdk14:2.0.17
//DEPS org.hdrhistogram:HdrHistogram:2.2.2
//DEPS org.jfree:jfreechart:1.5.6
//DEPS org.jfree:org.jfree.svg:5.0.7
//DEPS org.webjars:bootstrap:5.3.0
//DEPS org.seleniumhq.selenium:selenium-chrome-driver:4.52.0
// The annotation processor that generates JStachio's renderers; jbang has no compile-only scope.
//DEPS io.jstach:jstachio-apt:1.3.7
// JDK 23+ no longer runs annotation processors found on the class path unless asked to.
//JAVAC_OPTIONS -proc:full
//SOURCES base/*.java model/*.java client/*.java http/*.java site/*.java engines/*.java servers/*.java modes/*.java harness/*.java load/*.java verify/*.java tables/*.java stats/*.java importers/*.java report/*.java bench/*.java browser/*.java stress/*.java cli/*.java
//FILES templates/=templates/
//FILES data/=data/
//FILES assets/=assets/
//FILES bench/hyperfoil/=bench/hyperfoil/
// Netty loads its epoll transport through JNI; without this JDK 22+ warns on every start.
//JAVA_OPTIONS --enable-native-access=ALL-UNNAMED

/**
 * PssrBench: progressive server-side rendering on lightweight Java servers. Run
 * {@code jbang PssrBench.java --help}; the same sources build {@code target/pssrbench.jar} with Maven.
 */
public class PssrBench {
    public static void main(String[] args) {
        System.exit(cli.Cli.run(args));
    }
}
