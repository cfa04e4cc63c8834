#include "ClassSplitBar.h"

#include "store/RequestTable.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace {

QString bandsText(const TokenBands &bands)
{
    QStringList parts;
    for (const qint32 edge : bands.edges())
        parts << TokenBands::tokenCountLabel(edge);
    return parts.join(QStringLiteral(", "));
}

} // namespace

ClassSplitBar::ClassSplitBar(QWidget *parent)
    : QWidget(parent)
    , m_first(new QComboBox(this))
    , m_second(new QComboBox(this))
    , m_metric(new QComboBox(this))
    , m_boundary(new QLabel(this))
    , m_promptBands(new QLineEdit(this))
    , m_outputBands(new QLineEdit(this))
    , m_cacheStatus(new QLabel(this))
{
    setObjectName(QStringLiteral("classSplitBar"));
    m_first->setObjectName(QStringLiteral("classDimension1"));
    m_second->setObjectName(QStringLiteral("classDimension2"));
    m_metric->setObjectName(QStringLiteral("classMetric"));
    m_promptBands->setObjectName(QStringLiteral("classPromptBands"));
    m_outputBands->setObjectName(QStringLiteral("classOutputBands"));
    for (const Metric metric : allMetrics())
        m_metric->addItem(metricLabel(metric), int(metric));
    for (QLineEdit *edit : {m_promptBands, m_outputBands}) {
        edit->setToolTip(tr("Upper edges of the token bands, ascending: \"512, 2k, 8k\" gives <512, 512\u20132k, "
                            "2k\u20138k, \u22658k. Press Enter to apply."));
        edit->setMaximumWidth(140);
    }
    m_promptBands->setText(bandsText(m_bands.prompt));
    m_outputBands->setText(bandsText(m_bands.output));
    m_first->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_second->setSizeAdjustPolicy(QComboBox::AdjustToContents);

    auto *split = new QHBoxLayout;
    split->addWidget(new QLabel(tr("By:"), this));
    split->addWidget(m_first);
    split->addWidget(new QLabel(tr("and"), this));
    split->addWidget(m_second);
    split->addSpacing(12);
    split->addWidget(new QLabel(tr("Metric:"), this));
    split->addWidget(m_metric);
    split->addWidget(m_boundary);
    split->addStretch(1);
    auto *bands = new QHBoxLayout;
    bands->addWidget(new QLabel(tr("Prompt bands (tokens):"), this));
    bands->addWidget(m_promptBands);
    bands->addWidget(new QLabel(tr("Output bands (tokens):"), this));
    bands->addWidget(m_outputBands);
    bands->addSpacing(12);
    bands->addWidget(m_cacheStatus);
    bands->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(split);
    layout->addLayout(bands);

    connect(m_first, &QComboBox::activated, this, &ClassSplitBar::splitChanged);
    connect(m_second, &QComboBox::activated, this, &ClassSplitBar::splitChanged);
    connect(m_metric, &QComboBox::activated, this,
            [this] { emit metricPicked(static_cast<Metric>(m_metric->currentData().toInt())); });
    connect(m_promptBands, &QLineEdit::editingFinished, this, &ClassSplitBar::applyBandEdits);
    connect(m_outputBands, &QLineEdit::editingFinished, this, &ClassSplitBar::applyBandEdits);
    setTable(nullptr);
}

void ClassSplitBar::setTable(const RequestTable *table)
{
    m_dimensions = table ? classDimensions(*table) : std::vector<ClassDimension>{};
    m_first->clear();
    m_second->clear();
    m_second->addItem(tr("(nothing)"), QString());
    for (const auto &dimension : m_dimensions) {
        m_first->addItem(dimension.label, dimension.key);
        m_second->addItem(dimension.label, dimension.key);
    }
    const qsizetype cache = table ? cachedPrefixAttribute(*table) : -1;
    m_cacheStatus->setText(
        cache >= 0 ? tr("Cached prefix: read from \u201c%1\u201d").arg(table->attributes()[size_t(cache)].name())
                   : tr("Cached prefix: no cache attribute in this trace"));
}

void ClassSplitBar::showMetric(Metric metric)
{
    m_metric->setCurrentIndex(m_metric->findData(int(metric)));
}

void ClassSplitBar::showBoundary(Boundary boundary)
{
    m_boundary->setText(tr("at the %1 boundary").arg(boundaryKey(boundary)));
}

QStringList ClassSplitBar::keys() const
{
    QStringList keys{m_first->currentData().toString()};
    if (!m_second->currentData().toString().isEmpty())
        keys << m_second->currentData().toString();
    return keys;
}

std::vector<ClassDimension> ClassSplitBar::chosen() const
{
    std::vector<ClassDimension> chosen;
    for (const QString &key : keys()) {
        for (const auto &dimension : m_dimensions) {
            if (dimension.key == key)
                chosen.push_back(dimension);
        }
    }
    return chosen;
}

bool ClassSplitBar::setKeys(const QStringList &keys)
{
    if (keys.isEmpty() || keys.size() > 2)
        return false;
    const int first = m_first->findData(keys[0]);
    const int second = keys.size() == 2 ? m_second->findData(keys[1]) : 0;
    if (first < 0 || second < 0)
        return false;
    m_first->setCurrentIndex(first);
    m_second->setCurrentIndex(second);
    emit splitChanged();
    return true;
}

bool ClassSplitBar::setBands(const QString &prompt, const QString &output, QString *error)
{
    ClassBands bands;
    QString reason;
    if (!TokenBands::parse(prompt, &bands.prompt, &reason)) {
        if (error)
            *error = tr("Prompt bands: %1").arg(reason);
        return false;
    }
    if (!TokenBands::parse(output, &bands.output, &reason)) {
        if (error)
            *error = tr("Output bands: %1").arg(reason);
        return false;
    }
    m_promptBands->setText(bandsText(bands.prompt));
    m_outputBands->setText(bandsText(bands.output));
    if (bands != m_bands) {
        m_bands = bands;
        emit splitChanged();
    }
    return true;
}

void ClassSplitBar::applyBandEdits()
{
    QString error;
    if (!setBands(m_promptBands->text(), m_outputBands->text(), &error))
        emit bandsRefused(error);
}
